// `vm plan` and `vm compare` without their command lines: the host read (live, or a topology
// file with the doctor facts saved on the host or in an LXC container on it), the VM config, and
// the pure plan (vm/) made of them.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace p2p::session {

struct VmPlanRequest {
  std::string topology;   // hwloc XML, snapshot or nvidia-smi capture; "" = this host, live
  std::string facts;      // doctor --save-facts JSON; "" = live where the topology is, else none
  std::string gpus;       // --gpus list; "" = the config's GPUs, else all
  std::string vm_config;  // Proxmox <vmid>.conf or libvirt domain XML; "" = none
  std::string vmid;       // for qm set; "" = from the config file's name
  // The hypervisor whose snippet the text shows: proxmox, libvirt, qemu or cloud-hypervisor;
  // "" = the config's kind, else proxmox on a live Proxmox host (/etc/pve), else all four.
  std::string hypervisor;
  std::vector<std::string> p2p;  // the host's P2P captures (--p2p), evidence per pair
  std::string nccl_topo;         // write the guest's NCCL topology file here; "" = none
  std::string guest;             // the guest's topology: its GPUs' bus ids, in bus order
  std::string guest_bus_ids;     // or the guest's bus ids, comma-separated, in the VM's order
  int first_clique = 0;
};

// The outcome's two views, each made only when asked for: at 1,024 GPUs a comparison has 523,776
// pair rows, and building the JSON beside the text doubled the time and memory of either.
struct VmRunOutcome {
  std::function<std::string()> text;
  std::function<std::string()> json;  // JSON text (json_text)
  int exit_code = 0;
};

// InputError (exit 2) for a missing or malformed file, a GPU not on the host, a clique ID over 15.
VmRunOutcome run_vm_plan(const VmPlanRequest& r);

struct VmCompareRequest {
  std::string before, after, host;              // topology inputs
  std::string p2p_before, p2p_after, p2p_host;  // nvidia-smi topo -p2p captures to add
  std::string verify;  // vm verify's JSON from the guest after cliques; "" = none
};

VmRunOutcome run_vm_compare(const VmCompareRequest& r);

// `vm verify`: the guest's cliques proven pair by pair, from doctor facts saved in the guest
// (`facts`) or, with "", a live doctor run here (its peer copy between every pair).
VmRunOutcome run_vm_verify(const std::string& facts);

}  // namespace p2p::session
