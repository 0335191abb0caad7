// Inside a VFIO guest: which GPUDirect cliques the hypervisor gave the GPUs, what the driver made
// of them (NVML's P2P status per pair), whether the peer copy proved them, and which of the known
// traps the guest can see. Pure readings of the facts, shared by the vfio.clique check and the
// verdict's causes.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

// One pair of GPUs of one clique and what is known of it.
struct CliquePair {
  int clique = 0;
  std::string a, b;                   // bus ids, a < b
  std::optional<bool> driver_p2p;     // NVML read and write both OK; nullopt: not recorded
  std::string driver_reason;          // NVML's word where not OK ("CHIPSET_NOT_SUPPORTED")
  PairCopy copy = PairCopy::kNotRun;  // verified: both directions arrived intact
  std::vector<std::string> failures;  // "GPU0->GPU1 (0000:06:00.0 -> 0000:07:00.0): copy corrupt"
};

struct GuestCliques {
  bool checked = false;                             // the capability was read on some GPU
  std::map<int, std::vector<std::string>> cliques;  // clique ID -> bus ids
  std::vector<std::string> without;                 // GPUs whose capability is absent
  std::vector<std::string> unknown;                 // unreadable, malformed or never read
  std::vector<std::string> detail;                  // "0000:01:00.0: clique 0 (capability at 0xc8)"
  std::vector<CliquePair> pairs;                    // every pair inside each clique
  int gpus = 0;
};
GuestCliques guest_cliques(const Facts& f);

// Traps the guest itself can see: the KVM signature hidden (Proxmox hidden=1, libvirt
// <kvm><hidden state='on'/>), the i440fx machine type, GPUs behind an emulated PCIe switch.
std::vector<std::string> guest_traps(const Facts& f);

// The GPU(s) to take out of a clique whose pairs failed the peer copy (`failed`, pairs of one
// clique): the one(s) in the most failed pairs, so both of a lone failing pair.
std::vector<std::string> gpus_to_take_out(const std::vector<CliquePair>& failed);

// The host command that writes the cliques, as the fix names it.
std::string clique_plan_command(const GuestCliques& g);

namespace rules {
void vfio(const Facts& f, std::vector<Finding>& out);  // vfio.clique
}  // namespace rules

// p2p.status in a VFIO guest whose GPUs carry cliques: pairs of different cliques have no P2P by
// design, and vfio.clique judges those of one clique. nullopt where no GPU carries one.
std::optional<Finding> p2p_status_with_cliques(const Facts& f, const std::string& summary,
                                               const std::vector<std::string>& evidence);

}  // namespace p2p::doctor
