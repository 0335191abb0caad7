#include "session/vm_run.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/collect/live_topology.hpp"
#include "topology/discovery/discovery.hpp"
#include "vm/clique_proof.hpp"
#include "vm/guest_prospects.hpp"
#include "vm/host_capture.hpp"
#include "vm/nccl_topo_file.hpp"
#include "vm/plan_report.hpp"

namespace p2p::session {

namespace {

topo::TopologySnapshot with_p2p(const std::string& path, const std::string& p2p) {
  topo::TopologySnapshot t = topo::load_topology(path);
  if (!p2p.empty()) topo::apply_p2p_status_file(t, p2p);
  return t;
}

// The guest addresses a libvirt domain gives each of the VM's GPUs; empty unless it gives all.
std::vector<std::string> libvirt_guest_addresses(const vm::PlanReport& report,
                                                 const vm::HostView& view,
                                                 const std::vector<std::size_t>& selected) {
  std::vector<std::string> ids;
  if (!report.config || report.config->kind != "libvirt") return ids;
  for (std::size_t g : selected)
    for (const auto& d : report.config->devices)
      if (d.host_bdf == view.gpus[g].bdf && !d.guest_address.empty())
        ids.push_back(d.guest_address);
  return ids.size() == selected.size() ? ids : std::vector<std::string>{};
}

// The guest's bus ids of the VM's GPUs: as given; or the guest topology's GPUs in bus order,
// which is the order a hypervisor puts the VM's devices on its root ports; or the guest
// addresses of a libvirt domain (said in the install steps: libvirt's bus is a controller index).
std::vector<std::string> guest_bus_ids(const VmPlanRequest& r, std::size_t gpus,
                                       const std::vector<std::string>& from_config) {
  if (!r.guest_bus_ids.empty()) return vm::split_list(r.guest_bus_ids);
  if (r.guest.empty() && !from_config.empty()) return from_config;
  if (r.guest.empty())
    throw InputError(
        "--nccl-topo needs the GPUs' bus ids in the guest: --guest (the guest's p2pcheck topo "
        "--save), --guest-bus-ids, or a libvirt --vm-config whose <hostdev>s carry guest "
        "addresses");
  const topo::TopologySnapshot g = topo::load_topology(r.guest);
  std::vector<std::string> ids;
  for (const auto& gpu : g.gpus) ids.push_back(gpu.pci_bus_id);
  if (ids.size() != gpus)
    throw InputError(r.guest + ": the guest has " + std::to_string(ids.size()) +
                     " GPU(s), the VM gets " + std::to_string(gpus) + " from the host");
  return ids;
}

void write_nccl_topology(const VmPlanRequest& r, const vm::HostView& view,
                         const std::vector<std::size_t>& selected, vm::PlanReport& report) {
  const auto from_config = libvirt_guest_addresses(report, view, selected);
  const std::string xml = vm::nccl_topology_xml(view.topology, selected,
                                                guest_bus_ids(r, selected.size(), from_config));
  std::vector<std::vector<std::size_t>> cliques;
  for (const auto& c : report.plan.cliques) cliques.push_back(c.gpus);
  write_text_file_atomically(r.nccl_topo, xml);
  report.nccl_topo_file = r.nccl_topo;
  report.nccl_install = vm::nccl_topology_install(view.topology, cliques, r.nccl_topo);
  if (r.guest_bus_ids.empty() && r.guest.empty())
    report.nccl_install.push_back(
        "the guest bus ids are the <address> of each <hostdev> in " + report.config->source +
        ": libvirt's bus there is a controller index, which the guest's firmware usually keeps; "
        "p2pcheck doctor in the guest says whether the file names its GPUs");
}

// --hypervisor, else the kind of the config given, else Proxmox where this live host is one.
std::string chosen_hypervisor(const VmPlanRequest& r, const vm::PlanReport& report) {
  if (!r.hypervisor.empty()) return r.hypervisor;
  if (report.config) return report.config->kind;
  std::error_code ec;
  if (r.topology.empty() && std::filesystem::is_directory("/etc/pve/qemu-server", ec))
    return "proxmox";
  return "";
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
      r.topology.empty() ? doctor::live_topology() : topo::load_topology(r.topology);
  if (!r.topology.empty()) host.source = r.topology;  // a text capture's source says "nvidia-smi"
  std::string facts_source = r.facts;
  if (r.topology.empty() && !facts) {
    facts = doctor::collect_facts(doctor::CollectOptions{});
    facts_source = "live";
  }
  vm::HostView view = vm::make_host_view(host, facts ? &*facts : nullptr, facts_source);
  for (const auto& c : captures) vm::add_capture_evidence(view, c);
  const auto selected = vm::select_gpus(view, r.gpus, config ? &*config : nullptr);
  vm::PlanReport report =
      vm::make_plan_report(view, selected, r.first_clique, std::move(config), r.vmid);
  report.hypervisor = chosen_hypervisor(r, report);
  if (!r.nccl_topo.empty()) write_nccl_topology(r, view, selected, report);
  const int code = report.exit_code();
  auto shared =
      std::make_shared<std::pair<vm::PlanReport, vm::HostView>>(std::move(report), std::move(view));
  return {[shared] { return vm::format_plan_text(shared->first, shared->second); },
          [shared] { return vm::plan_json_text(shared->first, shared->second); }, code};
}

VmRunOutcome run_vm_verify(const std::string& facts_file) {
  const doctor::Facts f = facts_file.empty() ? doctor::collect_facts(doctor::CollectOptions{})
                                             : doctor::load_facts_file(facts_file);
  const auto p = std::make_shared<const vm::CliqueProof>(
      vm::prove_cliques(f, facts_file.empty() ? "live" : facts_file));
  return {[p] { return vm::format_proof_text(*p); }, [p] { return json_text(vm::proof_json(*p)); },
          p->exit_code()};
}

VmRunOutcome run_vm_compare(const VmCompareRequest& r) {
  const auto before = with_p2p(r.before, r.p2p_before);
  const auto after = with_p2p(r.after, r.p2p_after);
  const auto host = with_p2p(r.host, r.p2p_host);
  vm::ThreeWay t = vm::compare_three(before, after, host);
  if (!r.verify.empty())
    vm::add_proof(
        t, after,
        vm::proof_pairs_from_json(
            load_json_file(r.verify, [](const nlohmann::json& j) { return j; }), r.verify),
        r.verify);
  const int code = t.exit_code();
  const auto shared = std::make_shared<const vm::ThreeWay>(std::move(t));
  return {[shared, r] { return vm::format_three_way_text(*shared, r.before, r.after, r.host); },
          [shared, r] {
            nlohmann::json head = vm::three_way_json_head(*shared);
            head["before"] = r.before;
            head["after"] = r.after;
            head["host"] = r.host;
            return json_text_with_array(head, "pairs", shared->rows.size(), [&](std::size_t i) {
              return vm::three_way_row_json(shared->rows[i]);
            });
          },
          code};
}

}  // namespace p2p::session
