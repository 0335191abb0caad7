#include "session/vm_run.hpp"

#include <optional>

#include "common/file_io.hpp"
#include "doctor/collect/collect.hpp"
#include "session/live_topology.hpp"
#include "topology/discovery/discovery.hpp"
#include "vm/guest_prospects.hpp"
#include "vm/host_capture.hpp"
#include "vm/plan_report.hpp"

namespace p2p::session {

namespace {

topo::TopologySnapshot with_p2p(const std::string& path, const std::string& p2p) {
  topo::TopologySnapshot t = topo::load_topology(path);
  if (!p2p.empty()) topo::apply_p2p_status_file(t, p2p);
  return t;
}

}  // namespace

VmRunOutcome run_vm_plan(const VmPlanRequest& r) {
  // Files first, so bad input is refused before the live host is probed.
  std::optional<vm::VmConfig> config;
  if (!r.vm_config.empty()) config = vm::read_vm_config_file(r.vm_config);
  std::optional<doctor::Facts> facts;
  if (!r.facts.empty()) facts = doctor::load_facts_file(r.facts);
  std::vector<vm::HostCapture> captures;
  for (const auto& path : r.p2p)
    for (auto& c : vm::parse_host_captures(read_text_file(path), path))
      captures.push_back(std::move(c));
  topo::TopologySnapshot host =
      r.topology.empty() ? live_topology() : topo::load_topology(r.topology);
  if (!r.topology.empty()) host.source = r.topology;  // a text capture's source says "nvidia-smi"
  std::string facts_source = r.facts;
  if (r.topology.empty() && !facts) {
    facts = doctor::collect_facts(doctor::CollectOptions{});
    facts_source = "live";
  }
  vm::HostView view = vm::make_host_view(host, facts ? &*facts : nullptr, facts_source);
  for (const auto& c : captures) vm::add_capture_evidence(view, c);
  const auto selected = vm::select_gpus(view, r.gpus, config ? &*config : nullptr);
  const vm::PlanReport report =
      vm::make_plan_report(view, selected, r.first_clique, std::move(config), r.vmid);
  return {vm::format_plan_text(report, view), vm::plan_json(report, view), report.exit_code()};
}

VmRunOutcome run_vm_compare(const VmCompareRequest& r) {
  const auto before = with_p2p(r.before, r.p2p_before);
  const auto after = with_p2p(r.after, r.p2p_after);
  const auto host = with_p2p(r.host, r.p2p_host);
  const vm::ThreeWay t = vm::compare_three(before, after, host);
  nlohmann::json j = vm::three_way_json(t);
  j["before"] = r.before;
  j["after"] = r.after;
  j["host"] = r.host;
  return {vm::format_three_way_text(t, r.before, r.after, r.host), j, t.exit_code()};
}

}  // namespace p2p::session
