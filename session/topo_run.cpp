#include "session/topo_run.hpp"

#include <optional>

#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/collect/live_topology.hpp"
#include "doctor/nccl_topo_file.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::session {

TopoOutcome run_topo(const TopoRequest& r) {
  TopoOutcome o;
  o.snapshot = r.input.empty() ? doctor::live_topology() : topo::load_topology(r.input);
  if (!r.environment.empty()) topo::apply_environment_facts_file(o.snapshot, r.environment);
  if (!r.p2p.empty()) topo::apply_p2p_status_file(o.snapshot, r.p2p);
  o.snapshot_json = topo::snapshot_to_json_text(o.snapshot);
  if (r.input.empty()) {
    std::vector<std::string> here;
    for (const auto& g : o.snapshot.gpus) here.push_back(g.pci_bus_id);
    const auto t = doctor::collect_nccl_topo_file("/", doctor::collect_env("/"));
    if (const auto j = doctor::judge_nccl_topo_file(t, here, o.snapshot.environment.kind == "vm"))
      o.nccl_topo_file = std::string(to_string(j->status)) + ": " + j->summary +
                         (j->hint.empty() ? "" : " (" + j->hint + ")");
  }
  if (!r.save.empty()) write_text_file_atomically(r.save, o.snapshot_json);
  return o;
}

TopoDiffOutcome run_topo_diff(const std::string& before_path, const std::string& after_path) {
  const topo::TopologySnapshot before = topo::load_topology(before_path);
  const topo::TopologySnapshot after = topo::load_topology(after_path);
  TopoDiffOutcome o;
  o.diff = topo::diff_topologies(before, after);
  topo::TopologySnapshot golden = after;
  golden.source = after_path;  // the decision names the file given as golden
  o.gate = topo::evaluate_gate(before, golden, std::nullopt);
  o.exit_code = o.diff.same() ? kExitOk : kExitFailed;
  o.prospects = vm::clique_prospects(before, after);
  return o;
}

}  // namespace p2p::session
