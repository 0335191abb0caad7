// The measuring half of `p2pcheck infer`: groups from this host's topology (or logical GPUs),
// each measured by rank processes with P2P on and off, then ranked, judged and reported.
#include "infer/host_run.hpp"

#include <unistd.h>

#include <iostream>
#include <map>

#include "bench/measure/inventory.hpp"
#include "bench/measure/no_gpu.hpp"
#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/run_resources.hpp"
#include "common/utc_time.hpp"
#include "document/nccl_run.hpp"
#include "infer/budget.hpp"
#include "infer/document.hpp"
#include "infer/group_runner.hpp"
#include "infer/groups.hpp"
#include "infer/ranking.hpp"
#include "infer/results_html.hpp"
#include "infer/results_text.hpp"
#include "nccl/placement.hpp"
#include "nccl/run/nccl_api.hpp"
#include "nccl/run/runner.hpp"
#include "session/live_topology.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::infer {

namespace {

// A group to measure: the ranks' CUDA devices and NCCL host ids, and how the results name it.
struct Target {
  GroupResult result;  // tp, gpus, pci ids, signature, description, alike
  std::vector<int> devices;
  std::vector<std::string> host_ids;
};

std::vector<Target> logical_targets(const InferPlan& plan, int logical_gpus,
                                    const std::vector<int>& devices,
                                    const bench::DeviceInventory& inv) {
  std::vector<Target> out;
  for (const TpGroups& tg : logical_groups(plan.tp_sizes, logical_gpus, devices)) {
    for (const GpuGroup& g : tg.groups) {
      const nccl::RankPlacement placement = nccl::place_ranks(tg.tp, devices);
      Target t;
      t.result.tp = tg.tp;
      t.result.gpus = g.gpus;
      t.result.signature = g.signature;
      t.result.worst_path = g.worst_path;
      t.result.description = g.description;
      for (const nccl::RankSlot& s : placement.ranks) {
        t.devices.push_back(s.device);
        t.host_ids.push_back(s.host_id);
        t.result.pci_bus_ids.push_back(
            inv.devices.at(static_cast<std::size_t>(s.device)).pci_bus_id);
      }
      out.push_back(std::move(t));
    }
  }
  return out;
}

// The topology of this host (hwloc; CUDA and sysfs where hwloc cannot), its GPUs matched to CUDA
// ordinals by PCI bus id: only GPUs CUDA sees in `devices` can be grouped.
std::vector<Target> host_targets(const InferPlan& plan, const std::vector<int>& devices,
                                 const bench::DeviceInventory& inv, std::size_t max_groups,
                                 std::string& source, int& usable) {
  topo::TopologySnapshot t;
  try {
    t = session::live_topology();
    source = "this host (hwloc)";
  } catch (const std::exception& e) {
    t = bench::snapshot_from_cuda(inv);
    source = std::string("this host (CUDA and sysfs; hwloc: ") + e.what() + ")";
  }
  std::map<std::string, int> ordinal_of;
  for (int d : devices) ordinal_of[inv.devices.at(static_cast<std::size_t>(d)).pci_bus_id] = d;
  std::vector<int> eligible;
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    if (ordinal_of.count(t.gpus[i].pci_bus_id) != 0) eligible.push_back(static_cast<int>(i));
  }
  usable = static_cast<int>(eligible.size());
  std::vector<Target> out;
  for (const TpGroups& tg : plan_groups(plan.tp_sizes, t, eligible, max_groups)) {
    for (const GpuGroup& g : tg.groups) {
      Target target;
      target.result.tp = tg.tp;
      target.result.signature = g.signature;
      target.result.worst_path = g.worst_path;
      target.result.description = g.description;
      target.result.alike = g.alike;
      for (int idx : g.gpus) {
        const std::string& bus = t.gpus.at(static_cast<std::size_t>(idx)).pci_bus_id;
        target.devices.push_back(ordinal_of.at(bus));
        target.host_ids.emplace_back();
        target.result.gpus.push_back(ordinal_of.at(bus));
        target.result.pci_bus_ids.push_back(bus);
      }
      out.push_back(std::move(target));
    }
  }
  return out;
}

std::string nccl_version() {
  int code = 0;
  return nccl::nccl_api().get_version(&code) == ncclSuccess ? doc::format_nccl_version(code) : "";
}

}  // namespace

int run_infer(const InferOptions& o, const InferPlan& plan) {
  const std::string started = utc_now_iso8601();
  const RunClock clock;
  InferDocument doc;
  doc.plan = plan;
  doc.ranking_message = ranking_message(plan, o.rank_batch);  // bad input stops before any GPU work
  std::optional<Budget> budget;
  if (!o.budget.empty()) {
    budget = parse_budget(o.budget, plan);
    doc.budget_us_per_token = o.budget;
  }
  bench::require_usable_gpus();  // NoGpuError: one line, exit 3
  const bench::DeviceInventory inv = bench::discover_devices();
  // A logical run is for one GPU: device 0 unless --devices says otherwise.
  doc.devices = nccl::select_devices(o.logical_gpus > 0 && o.devices.empty() ? std::vector<int>{0}
                                                                             : o.devices);
  doc.nccl_version = nccl_version();  // loads NCCL: NoGpuError (exit 3) where it cannot be
  doc.started_utc = started;
  doc.hostname = session::this_hostname();
  doc.logical_gpus = o.logical_gpus;
  doc.measure = MeasureSettings{o.calls,     o.calls_per_graph, o.warmup,
                                o.timeout_s, !o.no_p2p_off,     !o.no_ipc_check};

  int usable = 0;
  std::vector<Target> targets;
  if (o.logical_gpus > 0) {
    doc.topology_source = "logical";
    usable = o.logical_gpus;
    targets = logical_targets(plan, o.logical_gpus, doc.devices, inv);
  } else {
    targets = host_targets(plan, doc.devices, inv, o.max_groups, doc.topology_source, usable);
  }
  if (const std::string note = logical_note(doc); !note.empty())
    std::cerr << "p2pcheck infer: " << note << "\n";

  InferRankJob job;
  job.messages = plan.messages;
  job.dtype = plan.model.dtype;
  job.calls = o.calls;
  job.calls_per_graph = o.calls_per_graph;
  job.warmup = o.warmup;
  job.timeout_s = o.timeout_s;
  nccl::Progress progress;
  progress.out = &std::cerr;
  progress.terminal = ::isatty(STDERR_FILENO) == 1;
  for (Target& t : targets) {
    job.devices = t.devices;
    job.host_ids = t.host_ids;
    job.p2p_disabled = false;
    job.ipc_check = !o.no_ipc_check;
    const std::string name =
        "TP=" + std::to_string(t.result.tp) + " GPUs " + format_gpu_list(t.result.gpus);
    progress.label = "p2pcheck infer " + name;
    GroupOutcome on = run_group(job, t.result.gpus, plan.calls_per_step, progress);
    t.result.p2p_on = std::move(on.run);
    t.result.ipc = std::move(on.ipc);
    if (!o.no_p2p_off) {
      // What a VM without P2P gets: NCCL over shared host memory. The IPC check is P2P-on only.
      job.p2p_disabled = true;
      job.ipc_check = false;
      progress.label = "p2pcheck infer " + name + " (P2P off)";
      t.result.p2p_off = run_group(job, t.result.gpus, plan.calls_per_step, progress).run;
    }
    doc.groups.push_back(std::move(t.result));
  }
  doc.rankings = rank_groups(plan, doc.groups, doc.ranking_message, usable);
  if (budget) doc.verdicts = judge_budget(*budget, plan, doc.rankings, doc.groups);
  doc.wall_s = clock.now().wall_s;

  std::cout << format_results(doc) << std::flush;
  if (!o.json.empty()) write_text_file_atomically(o.json, nlohmann::json(doc).dump(2) + "\n");
  if (!o.html.empty()) write_text_file_atomically(o.html, render_infer_html(doc));

  return exit_code_of(doc);
}

}  // namespace p2p::infer
