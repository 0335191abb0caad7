#include "session/infer_session.hpp"

#include <unistd.h>

#include <iostream>
#include <optional>

#include "common/interrupt.hpp"
#include "common/utc_time.hpp"
#include "document/nccl_run.hpp"
#include "gpus/cuda_devices.hpp"
#include "infer/budget.hpp"
#include "infer/group_runner.hpp"
#include "infer/groups.hpp"
#include "infer/ranking.hpp"
#include "infer/results_html.hpp"
#include "infer/results_text.hpp"
#include "infer/targets.hpp"
#include "infer/verdict.hpp"
#include "nccl/run/nccl_api.hpp"
#include "nccl/run/runner.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/gpu_sharing_check.hpp"
#include "session/machine_outputs.hpp"
#include "session/measurement_pipeline.hpp"
#include "session/run_verdict.hpp"

namespace p2p::session {
namespace {

std::string nccl_version() {
  int code = 0;
  return nccl::nccl_api().get_version(&code) == ncclSuccess ? doc::format_nccl_version(code) : "";
}

infer::InferRankJob rank_job_of(const infer::InferOptions& o, const infer::InferPlan& plan) {
  infer::InferRankJob job;
  job.messages = plan.messages;
  job.dtype = plan.model.dtype;
  job.calls = o.calls;
  job.calls_per_graph = o.calls_per_graph;
  job.warmup = o.warmup;
  job.timeout_s = o.timeout_s;
  return job;
}

doc::InferDocument document_of(const InferRequest& r, const infer::InferPlan& plan) {
  const infer::InferOptions& o = r.infer;
  doc::InferDocument d;
  d.tool_version = P2P_VERSION;
  d.started_utc = utc_now_iso8601();
  d.hostname = this_hostname();
  d.plan = plan;
  d.ranking_message = infer::ranking_message(plan, o.rank_batch);
  if (!o.budget.empty()) d.budget_us_per_token = o.budget;
  d.logical_gpus = o.logical_gpus;
  d.skip_gate = r.gate.skip_gate;
  d.measure = doc::MeasureSettings{o.calls,     o.calls_per_graph, o.warmup,
                                   o.timeout_s, !o.no_p2p_off,     !o.no_ipc_check};
  return d;
}

// infer's own part of the pipeline: the groups from the gate's topology (or logical ones), each
// measured by rank processes with P2P on and off, then ranked, budgeted and judged.
class InferMeasurement : public Measurement {
 public:
  InferMeasurement(const InferRequest& r, const infer::InferPlan& plan)
      : request_(r), plan_(plan), doc_(document_of(r, plan)) {
    if (!r.infer.budget.empty()) budget_ = infer::parse_budget(r.infer.budget, plan);
  }

  std::vector<std::string> bus_ids_to_measure() override {
    for (const auto& d : gpus::discover_devices().devices) bus_ids_.push_back(d.pci_bus_id);
    return measured_bus_ids(bus_ids_, requested_devices());
  }

  void measure(const TopologyAndGate& tg, RunLog& log) override {
    doc_.gate = tg.gate;
    doc_.devices = nccl::select_devices(requested_devices());
    doc_.nccl_version = nccl_version();  // loads NCCL: NoGpuError (exit 3) where it cannot be
    std::vector<infer::Target> targets = targets_on(tg.snapshot);
    if (const std::string note = infer::logical_note(doc_); !note.empty())
      std::cerr << "p2pcheck infer: " << note << "\n";
    for (std::size_t i = 0; i < targets.size() && interrupt_signal() == 0; ++i) {
      doc_.groups.push_back(measure_group(std::move(targets[i])));
      if (log.active())
        log.write(report::jsonl_line("infer_group", "infer", log.host(), utc_now_iso8601(),
                                     nlohmann::json(doc_.groups.back())));
    }
    if (const int sig = interrupt_signal(); sig != 0)
      doc_.interrupted = interrupt_name(sig) + " with " + std::to_string(doc_.groups.size()) +
                         " of " + std::to_string(targets.size()) + " group(s) measured";
  }

  JudgedRun judge(const AfterMeasuring& after) override;

 private:
  // A logical run is for one GPU: device 0 unless --devices says otherwise.
  std::vector<int> requested_devices() const {
    const infer::InferOptions& o = request_.infer;
    return o.logical_gpus > 0 && o.devices.empty() ? std::vector<int>{0} : o.devices;
  }

  std::vector<infer::Target> targets_on(const topo::TopologySnapshot& t) {
    const infer::InferOptions& o = request_.infer;
    if (o.logical_gpus > 0) {
      doc_.topology_source = "logical";
      usable_ = o.logical_gpus;
      return infer::logical_targets(plan_, o.logical_gpus, doc_.devices, bus_ids_);
    }
    doc_.topology_source = t.source == "cuda" ? "this host (CUDA and sysfs)" : "this host (hwloc)";
    infer::HostTargets h = infer::host_targets(plan_, t, doc_.devices, bus_ids_, o.max_groups);
    usable_ = h.usable;
    return std::move(h.targets);
  }

  doc::GroupResult measure_group(infer::Target t) const;
  std::vector<report::CheckSuite> junit_of(const doc::RunVerdict& v) const;

  const InferRequest& request_;
  const infer::InferPlan& plan_;
  doc::InferDocument doc_;
  std::optional<infer::Budget> budget_;
  std::vector<std::string> bus_ids_;  // of every CUDA ordinal
  int usable_ = 0;
};

// One group with P2P on and, unless --no-p2p-off or a stop came in between, with P2P off: what a
// VM without P2P gets, NCCL over shared host memory. The IPC check is P2P-on only.
doc::GroupResult InferMeasurement::measure_group(infer::Target t) const {
  const infer::InferOptions& o = request_.infer;
  infer::InferRankJob job = rank_job_of(o, plan_);
  job.devices = t.devices;
  job.host_ids = t.host_ids;
  job.ipc_check = !o.no_ipc_check;
  const std::string name =
      "TP=" + std::to_string(t.result.tp) + " GPUs " + infer::format_gpu_list(t.result.gpus);
  nccl::Progress progress;
  progress.out = &std::cerr;
  progress.terminal = ::isatty(STDERR_FILENO) == 1;
  progress.label = "p2pcheck infer " + name;
  infer::GroupOutcome on = infer::run_group(job, t.result.gpus, plan_.calls_per_step, progress);
  t.result.p2p_on = std::move(on.run);
  t.result.ipc = std::move(on.ipc);
  if (!o.no_p2p_off && interrupt_signal() == 0) {
    job.p2p_disabled = true;
    job.ipc_check = false;
    progress.label = "p2pcheck infer " + name + " (P2P off)";
    t.result.p2p_off = infer::run_group(job, t.result.gpus, plan_.calls_per_step, progress).run;
  }
  return std::move(t.result);
}

std::vector<report::CheckSuite> InferMeasurement::junit_of(const doc::RunVerdict& v) const {
  std::vector<report::CheckSuite> out;
  if (doc_.gate.reasons)
    out.push_back(report::gate_suite(*doc_.gate.reasons, doc_.hostname, doc_.started_utc));
  out.push_back(report::verdict_suite(v, doc_.hostname, doc_.started_utc));
  report::make_case_names_unique(out);
  return out;
}

JudgedRun InferMeasurement::judge(const AfterMeasuring& after) {
  doc_.gpu_sharing = after.sharing;
  doc_.wall_s = after.used.wall_s;
  doc_.rankings = infer::rank_groups(plan_, doc_.groups, doc_.ranking_message, usable_);
  if (budget_) doc_.verdicts = infer::judge_budget(*budget_, plan_, doc_.rankings, doc_.groups);
  infer::InferRunFacts facts;
  facts.interrupt_signal = after.interrupt_signal;
  facts.expect_gpus = after.expect_gpus;
  facts.gpus_seen = static_cast<int>(bus_ids_.size());
  doc_.verdict = infer::judge_infer(doc_, facts);

  JudgedRun run;
  run.verdict = *doc_.verdict;
  run.text = infer::format_results(doc_);
  run.junit = junit_of(run.verdict);
  run.summary = {{"groups", doc_.groups.size()},
                 {"interrupted", doc_.interrupted},
                 {"gpu_shared",
                  after.sharing ? nlohmann::json(after.sharing->shared) : nlohmann::json(nullptr)},
                 {"verdict", verdict_summary(run.verdict)}};
  if (!request_.html.empty())
    run.extra_files.emplace_back(request_.html, infer::render_infer_html(doc_));
  run.document = doc_;
  return run;
}

}  // namespace

int run_infer_session(const InferRequest& r, const infer::InferPlan& plan) {
  InferMeasurement infer(r, plan);
  MeasurementRequest m;
  m.command = "infer";
  m.gate = r.gate;
  m.init_timeout_s = r.init_timeout_s;
  m.exclusive = r.exclusive;
  m.outputs = RunOutputs{r.json, r.jsonl, r.junit};
  return run_measurement(m, infer);
}

}  // namespace p2p::session
