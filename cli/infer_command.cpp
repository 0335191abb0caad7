#include "cli/infer_command.hpp"

#include <iostream>
#include <memory>

#include "cli/infer_run.hpp"
#include "cli/live_topology.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "infer/budget.hpp"
#include "infer/groups.hpp"
#include "infer/ranking.hpp"
#include "infer/plan_text.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::cli {

namespace {

void add_options(CLI::App* app, InferCommandOptions& o) {
  app->add_option("--model", o.model, "a Hugging Face config.json (hidden_size, num_hidden_layers, torch_dtype; "
                                      "text_config of multimodal models)");
  app->add_option("--hidden", o.hidden, "hidden size, instead of --model")->check(CLI::PositiveNumber);
  app->add_option("--layers", o.layers, "layers, with --hidden")->capture_default_str()->check(CLI::PositiveNumber);
  app->add_option("--dtype", o.dtype, "all-reduce type: bf16, fp16, fp32 (default: the config's; bf16 with --hidden)");
  app->add_option("--tp", o.tp_sizes, "tensor-parallel sizes")->delimiter(',')->capture_default_str();
  app->add_option("--batch", o.batches, "decode batch sizes (message = batch x hidden x dtype bytes)")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--prefill", o.prefill, "prefill token counts (message = tokens x hidden x dtype bytes)")
      ->delimiter(',')
      ->capture_default_str();
  app->add_flag("--no-prefill", o.no_prefill, "decode messages only");
  app->add_flag("--list", o.list, "print the plan (messages, calls per step, GPU groups) and exit; no GPU needed");
  app->add_option("--topology", o.topology,
                  "take the GPU groups from this topology (hwloc XML, p2pcheck snapshot, nvidia-smi topo -m) "
                  "instead of this host's; with --list only");
  app->add_option("--devices,--gpus", o.devices, "CUDA devices the groups may use (default: all)")->delimiter(',');
  app->add_option("--logical-gpus", o.logical_gpus,
                  "run N rank processes on the devices (round-robin, each its own NCCL host): the whole profile on "
                  "one GPU; figures measure the tool, not links")
      ->check(CLI::Range(2, 64));
  app->add_option("--max-groups", o.max_groups, "at most this many GPU groups per TP size (best ones and the worst)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app->add_option("--calls", o.calls, "timed all-reduce calls per message")->capture_default_str()->check(CLI::Range(1, 1000000));
  app->add_option("--calls-per-graph", o.calls_per_graph, "calls captured in one CUDA graph")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  app->add_option("--warmup", o.warmup, "untimed calls per message")->capture_default_str()->check(CLI::Range(0, 100000));
  app->add_option("--timeout", o.timeout_s, "seconds before a call counts as a hang")->capture_default_str()
      ->check(CLI::Range(0.001, 86400.0));
  app->add_flag("--no-p2p-off", o.no_p2p_off, "skip the side-by-side run with NCCL_P2P_DISABLE=1");
  app->add_flag("--no-ipc-check", o.no_ipc_check, "skip the CUDA IPC check between rank processes");
  app->add_option("--budget-us-per-token", o.budget,
                  "all-reduce microseconds one generated token may cost: 40 (every batch) or 1:20,32:40 (per batch); "
                  "exit 1 when a recommended group misses it");
  app->add_option("--rank-batch", o.rank_batch, "rank groups at this decode batch (default: the largest)");
  app->add_option("--json", o.json, "write the results document to FILE (atomically)");
  app->add_option("--html", o.html, "write the results as an HTML page to FILE (atomically)");
}

// The groups --list shows: logical, from a file, or from this host (a note where it has none).
struct ListedGroups {
  std::vector<infer::TpGroups> groups;
  std::string source;
  std::string note;
};

ListedGroups groups_to_list(const InferCommandOptions& o, const infer::InferPlan& plan) {
  ListedGroups out;
  if (o.logical_gpus > 0) {
    out.source = "logical: " + std::to_string(o.logical_gpus) + " rank processes";
    out.groups = infer::logical_groups(plan.tp_sizes, o.logical_gpus, o.devices.empty() ? std::vector<int>{0} : o.devices);
    return out;
  }
  topo::TopologySnapshot t;
  if (!o.topology.empty()) {
    t = topo::load_topology(o.topology);
    out.source = o.topology;
  } else {
    try {
      t = live_topology();
      out.source = "this host";
    } catch (const NoGpuError& e) {
      out.source = "this host";
      out.note = std::string("no GPU topology here (") + e.what() + "); --topology FILE shows the groups of another host";
      return out;
    }
  }
  out.source += ", " + std::to_string(t.gpus.size()) + " GPUs";
  out.groups = infer::plan_groups(plan.tp_sizes, t, infer::all_gpus(t), o.max_groups);
  return out;
}

}  // namespace

infer::InferPlan infer_plan(const InferCommandOptions& o) {
  if (o.model.empty() == (o.hidden == 0)) throw InputError("infer: give the model as --model FILE or --hidden N (one of them)");
  if (!o.model.empty() && o.layers_given) throw InputError("infer: --layers goes with --hidden; --model has num_hidden_layers");
  const infer::ModelShape model =
      o.model.empty() ? infer::model_shape_from_options(o.hidden, o.layers, o.dtype.empty() ? "bf16" : o.dtype)
                      : infer::read_model_config(o.model, o.dtype.empty() ? std::nullopt : std::optional(o.dtype));
  return infer::make_plan(model, o.tp_sizes, o.batches, o.no_prefill ? std::vector<std::uint64_t>{} : o.prefill);
}

Command add_infer_command(CLI::App& root) {
  auto o = std::make_shared<InferCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "infer", "inference acceptance: tensor-parallel all-reduce cost per generated token, per GPU group, with P2P on "
               "and off, plus the CUDA IPC check serving engines run; --list needs no GPU");
  add_options(app, *o);
  CLI::Option* layers = app->get_option("--layers");
  return Command{app, [o, layers] {
                   o->layers_given = layers->count() > 0;
                   const infer::InferPlan plan = infer_plan(*o);
                   // Checked here, so bad input is exit 2 in every build, before any GPU work.
                   infer::ranking_message(plan, o->rank_batch);
                   if (!o->budget.empty()) infer::parse_budget(o->budget, plan);
                   if (o->list) {
                     if (!o->topology.empty() && o->logical_gpus > 0) {
                       throw InputError("infer: --topology and --logical-gpus exclude each other");
                     }
                     const ListedGroups g = groups_to_list(*o, plan);
                     std::cout << infer::format_plan(plan, g.groups, g.source, g.note);
                     return static_cast<int>(kExitOk);
                   }
                   if (!o->topology.empty()) throw InputError("infer: --topology goes with --list (a run measures this host)");
                   return run_infer(*o, plan);
                 }};
}

}  // namespace p2p::cli
