#include "cli/infer_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "cli/machine_outputs.hpp"
#include "cli/measurement_options.hpp"
#include "cli/validators.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/output_paths.hpp"
#include "infer/run_options.hpp"
#include "session/infer_session.hpp"

#if P2P_HAVE_NCCL
#include "infer/rank_main.hpp"
#endif

namespace p2p::cli {

namespace {

void throw_if_listing(const infer::InferOptions& o, const std::string& option) {
  if (o.list)
    throw InputError(option +
                     ": infer --list prints the plan and measures nothing, so there are no "
                     "results to write; drop --list to measure, or drop " +
                     option);
}

void add_model_options(CLI::App* app, infer::InferOptions& o) {
  app->add_option("--model", o.model,
                  "a Hugging Face config.json (hidden_size, num_hidden_layers, torch_dtype; "
                  "text_config of multimodal models)")
      ->type_name("FILE");
  app->add_option("--hidden", o.hidden, "hidden size, instead of --model")
      ->check(count_between(1, 1 << 20));
  app->add_option("--layers", o.layers, "layers, with --hidden")
      ->capture_default_str()
      ->check(count_between(1, 4096));
  app->add_option("--dtype", o.dtype,
                  "all-reduce type: bf16, fp16, fp32 (default: the config's; bf16 with --hidden)");
  app->add_option("--tp", o.tp_sizes, "tensor-parallel sizes")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--batch", o.batches,
                  "decode batch sizes (message = batch x hidden x dtype bytes)")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--prefill", o.prefill,
                  "prefill token counts (message = tokens x hidden x dtype bytes)")
      ->delimiter(',')
      ->capture_default_str();
  app->add_flag("--no-prefill", o.no_prefill, "decode messages only");
  app->add_flag("--list", o.list,
                "print the plan (messages, calls per step, GPU groups) and exit; no GPU needed");
  app->add_option(
         "--topology", o.topology,
         "take the GPU groups from this topology (hwloc XML, p2pcheck snapshot, nvidia-smi topo -m) "
         "instead of this host's; with --list only")
      ->type_name("FILE");
}

void add_measure_options(CLI::App* app, infer::InferOptions& o) {
  app->add_option("--devices,--gpus", o.devices, "CUDA devices the groups may use (default: all)")
      ->delimiter(',')
      ->check(not_empty("CUDA device numbers"));
  app->add_option(
         "--logical-gpus", o.logical_gpus,
         "run N rank processes on the devices (round-robin, each its own NCCL host): the whole profile on "
         "one GPU; figures measure the tool, not links")
      ->check(count_between(2, 64));
  app->add_option("--max-groups", o.max_groups,
                  "at most this many GPU groups per TP size (best ones and the worst)")
      ->capture_default_str()
      ->check(count_between(1, 64));
  app->add_option("--calls", o.calls, "timed all-reduce calls per message")
      ->capture_default_str()
      ->check(count_between(1, 1000000));
  app->add_option("--calls-per-graph", o.calls_per_graph, "calls captured in one CUDA graph")
      ->capture_default_str()
      ->check(count_between(1, 10000));
  app->add_option("--warmup", o.warmup, "untimed calls per message")
      ->capture_default_str()
      ->check(count_between(0, 100000));
  app->add_option("--timeout", o.timeout_s, "seconds before a call counts as a hang")
      ->capture_default_str()
      ->check(seconds_between(0.001, 86400.0));
  app->add_flag("--no-p2p-off", o.no_p2p_off, "skip the side-by-side run with NCCL_P2P_DISABLE=1");
  app->add_flag("--no-ipc-check", o.no_ipc_check, "skip the CUDA IPC check between rank processes");
  app->add_option(
         "--budget-us-per-token", o.budget,
         "all-reduce microseconds one generated token may cost: 40 (every batch) or 1:20,32:40 (per batch); "
         "exit 1 when a recommended group misses it")
      ->type_name("BUDGET");
  app->add_option("--rank-batch", o.rank_batch,
                  "rank groups at this decode batch (default: the largest)");
}

// The gate, the preflight, the sharing check and the outputs every measuring command has.
void add_run_options(CLI::App* app, session::InferRequest& r) {
  app->add_option("--json", r.json, "write the results document to FILE (atomically)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--html", r.html, "write the results as an HTML page to FILE (atomically)")
      ->type_name("FILE")
      ->check(file_path());
  add_junit_option(app, r.junit);
  add_jsonl_option(app, r.jsonl);
  add_gate_options(app, r.gate);
  add_init_timeout_option(app, r.init_timeout_s);
  add_exclusive_option(app, r.exclusive);
}

// Outputs checked against the inputs before anything runs; --list measures nothing, so a results
// document or page asked for beside it could never be written: said, not skipped.
void check_infer_outputs(const session::InferRequest& r) {
  OutputRequest paths;
  add_output(paths, "--json", r.json, false);  // the listing and tables are stdout's
  add_output(paths, "--html", r.html, false);
  add_output(paths, "--junit", r.junit, false);
  add_output(paths, "--jsonl", r.jsonl, false);
  add_input(paths, "--model", r.infer.model);
  add_input(paths, "--topology", r.infer.topology);
  check_output_paths(paths);
  for (const auto& out : paths.outputs) throw_if_listing(r.infer, out.option);
}

}  // namespace

Command add_infer_command(CLI::App& root) {
  auto r = std::make_shared<session::InferRequest>();
  infer::InferOptions* o = &r->infer;
  CLI::App* app = root.add_subcommand(
      "infer",
      "inference acceptance: tensor-parallel all-reduce cost per generated token, per GPU group, with P2P on "
      "and off, plus the CUDA IPC check serving engines run; --list needs no GPU");
  add_model_options(app, *o);
  add_measure_options(app, *o);
  add_run_options(app, *r);
  CLI::Option* layers = app->get_option("--layers");
  return Command{app, [r, layers] {
                   r->infer.layers_given = layers->count() > 0;
                   check_infer_outputs(*r);
                   const infer::InferPlan plan = infer::checked_plan(r->infer);
                   if (r->infer.list) {
                     std::cout << infer::plan_listing(r->infer, plan);
                     return static_cast<int>(kExitOk);
                   }
                   return session::run_infer_session(*r, plan);
                 }};
}

Command add_infer_rank_command(CLI::App& root) {
  CLI::App* app = root.add_subcommand("infer-rank", "one rank process of `p2pcheck infer`");
  app->group("");  // internal: started by `p2pcheck infer`, hidden from --help
#if P2P_HAVE_NCCL
  auto job = std::make_shared<std::string>();
  auto rank = std::make_shared<int>(-1);
  app->add_option("--job", *job, "the group's job (JSON)")->required();
  app->add_option("--rank", *rank, "this process's rank")->required();
  return Command{app, [job, rank] { return infer::run_infer_rank(*job, *rank); }};
#else
  app->allow_extras();  // whatever it is given, this build cannot measure: infer says why
  return Command{
      app, [] { return session::run_infer_session(session::InferRequest{}, infer::InferPlan{}); }};
#endif
}

}  // namespace p2p::cli
