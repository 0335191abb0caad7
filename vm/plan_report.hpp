// `vm plan` without its command line: the GPUs chosen for the VM, the cliques, the traps in the
// VM's config, the hypervisor snippets, and their text and JSON (schema p2pcheck.vm_plan v1).
// Pure: discovery (live host, files) is session/vm_plan_run.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vm/clique_plan.hpp"
#include "vm/config_traps.hpp"
#include "vm/host_view.hpp"
#include "vm/snippets.hpp"
#include "vm/vm_config.hpp"

namespace p2p::vm {

// "a, b,c" -> {"a", "b", "c"}: a comma-separated option's items, trimmed (--gpus,
// --guest-bus-ids).
std::vector<std::string> split_list(const std::string& s);

// --gpus: a comma-separated list of host GPU indexes ("0,1,4") or PCI addresses ("0000:41:00.0",
// "41:00.0"); "" takes the GPUs the VM config passes through, or else every GPU of the host.
// InputError "--gpus: ..." for a GPU the host does not have, a duplicate, an empty item.
std::vector<std::size_t> select_gpus(const HostView& v, const std::string& spec,
                                     const VmConfig* config);

struct PlanReport {
  static constexpr int kSchemaVersion = 1;
  std::string topology_source;
  CliquePlan plan;
  std::optional<VmConfig> config;
  std::vector<Trap> traps;
  Snippets snippets;
  // The hypervisor whose snippet the text shows (proxmox, libvirt, qemu, cloud-hypervisor); ""
  // shows all four. The JSON always holds all four.
  std::string hypervisor;
  std::string nccl_topo_file;             // where the guest's NCCL topology was written; ""
  std::vector<std::string> nccl_install;  // how the guest takes it
  // 0: every GPU in a clique on the host's evidence and no trap; 1: a GPU left out, a trap in the
  // config, or a clique pair resting on the path class alone (provisional).
  int exit_code() const;
};

PlanReport make_plan_report(const HostView& v, const std::vector<std::size_t>& selected,
                            int first_clique, std::optional<VmConfig> config,
                            const std::string& vmid);

std::string format_plan_text(const PlanReport& r, const HostView& v);
nlohmann::json plan_json(const PlanReport& r, const HostView& v);
// json_text(plan_json(r, v)), its pair rows written one at a time: a 1,024-GPU plan held as JSON
// values took 1.4 GB for 173 MB of text.
std::string plan_json_text(const PlanReport& r, const HostView& v);

}  // namespace p2p::vm
