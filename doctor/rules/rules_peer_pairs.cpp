// Whether GPU pairs have peer-to-peer: what NVML reports for each pair (p2p.status) and whether
// data copied between them arrives intact (p2p.copy).
#include <optional>
#include <set>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/rules/rules_p2p_checks.hpp"
#include "doctor/rules/rules_util.hpp"
#include "doctor/vfio_guest.hpp"

namespace p2p::doctor::rules {

namespace {

// Every pair without P2P joins two GeForce cards that the driver gives no PCIe P2P, and no pair is
// refused for the platform's reasons (topology, regkey): the product, not the host, says no.
bool geforce_pcie_limit(const Facts& f, const std::vector<NvmlPair>& pairs) {
  const auto all = gpus(f);
  const auto limited = [&](int index) {
    for (const auto& g : all)
      if (g.nvml != nullptr && g.nvml->index == index) return geforce_without_pcie_p2p(g);
    return false;
  };
  bool any = false;
  for (const auto& p : pairs) {
    const bool good = p.read && *p.read == 0 && p.write && *p.write == 0;
    if (good) continue;
    for (const auto& s : {p.read, p.write})
      if (s && *s != 1 && *s != 2 && *s != 5 && *s != 0) return false;  // TNS, DR, U: other causes
    if (!limited(p.a) || !limited(p.b)) return false;
    any = true;
  }
  return any;
}

// NVML's word on every pair, tallied: the evidence lines, the pairs without P2P and why.
struct PairTally {
  std::vector<std::string> ev, bad;
  std::set<std::string> reasons;  // NVML's status names of the refused reads and writes
  int nvlink = 0, regkey = 0;     // pairs over NVLink; refusals DISABLED_BY_REGKEY
  std::set<int> ancestors;        // the topology levels where the pairs meet
};

PairTally tally_pairs(const std::vector<NvmlPair>& pairs) {
  PairTally t;
  for (const auto& p : pairs) {
    const auto word = [](const std::optional<int>& s) {
      return s ? p2p_status_short(*s) : std::string("?");
    };
    std::string line = "GPU" + std::to_string(p.a) + "-GPU" + std::to_string(p.b) + " read " +
                       word(p.read) + " write " + word(p.write) + " nvlink " + word(p.nvlink);
    if (p.common_ancestor) {
      line += " via " + topology_level_name(*p.common_ancestor);
      t.ancestors.insert(*p.common_ancestor);
    }
    t.ev.push_back(line);
    if (p.nvlink && *p.nvlink == 0) ++t.nvlink;
    const bool good = p.read && *p.read == 0 && p.write && *p.write == 0;
    if (good) continue;
    t.bad.push_back("GPU" + std::to_string(p.a) + "-GPU" + std::to_string(p.b));
    for (const auto& s : {p.read, p.write})
      if (s && *s != 0) {
        t.reasons.insert(p2p_status_name(*s));
        if (*s == 4) ++t.regkey;
      }
  }
  return t;
}

// p2p.status where pairs lack P2P because of where we run or what the GPUs are (WSL2, a vGPU
// guest, GeForce cards, a VFIO guest) rather than a fault of the host; nullopt otherwise.
std::optional<Finding> p2p_status_expected(const Facts& f, const PairTally& t,
                                           const std::string& summary) {
  if (in_wsl(f))
    return finding(
        "p2p.status", Status::kWarn, summary + " - WSL2 offers no peer-to-peer between GPUs", t.ev,
        "nothing to fix inside WSL2: NCCL moves data through host memory (or fails; "
        "NCCL_P2P_DISABLE=1 makes it fall back cleanly); for P2P run native Linux on the machine");
  if (in_vgpu_guest(f) && t.regkey == 0)
    return finding(
        "p2p.status", Status::kWarn,
        summary +
            " - vGPU guest: vGPUs have no P2P over PCIe, and over NVLink only as time-sliced vGPUs that own a "
            "whole GPU's framebuffer (not MIG-backed)",
        t.ev,
        "for P2P give the VM full-framebuffer time-sliced vGPU profiles (e.g. H100-80C) on NVLink-connected GPUs, or "
        "pass the GPUs through whole; otherwise NCCL moves data through host memory");
  if (t.regkey == 0 && geforce_pcie_limit(f, f.nvml.pairs))
    return finding(
        "p2p.status", Status::kWarn,
        summary +
            " - GeForce cards: the driver offers no PCIe P2P on this product (a product limitation, not a "
            "misconfiguration)",
        t.ev,
        "nothing to fix on this host: NVIDIA's driver enables P2P on GeForce cards since Turing only over an NVLink "
        "bridge; NCCL falls back to host shared memory. For PCIe P2P use workstation or data-centre GPUs");
  if (in_vm_passthrough(f) && t.regkey == 0) {
    const bool phb = t.ancestors.size() == 1 && *t.ancestors.begin() == 30;
    if (auto judged = p2p_status_with_cliques(f, summary, t.ev)) return *judged;
    return finding(
        "p2p.status", Status::kWarn,
        summary + " - expected in a VFIO guest" +
            (phb ? " (PHB on every pair: emulated root ports)" : ""),
        t.ev,
        "give the GPUs GPUDirect cliques on the host (see vfio.clique: p2pcheck vm plan there prints "
        "the x-nv-gpudirect-clique settings), or run the workload on the host or in an LXC container");
  }
  return std::nullopt;
}

std::string pair_name(const PeerCopyPair& p) {
  return "GPU" + std::to_string(p.src) + "->GPU" + std::to_string(p.dst) + " (" + p.src_bus_id +
         (p.src == p.dst ? "" : " -> " + p.dst_bus_id) + ")";
}

// "GPU0->GPU1 (...): copy ok, SM store corrupt (12/1024 words differ); <detail>".
std::string pair_evidence(const PeerCopyPair& p) {
  std::string line = pair_name(p) + ": copy " + to_string(p.copy_result);
  if (p.copy_mismatched_words)
    line += " (" + std::to_string(*p.copy_mismatched_words) + "/" + std::to_string(p.words) +
            " words differ)";
  line += std::string(", SM store ") + to_string(p.store_result);
  if (p.store_mismatched_words)
    line += " (" + std::to_string(*p.store_mismatched_words) + "/" + std::to_string(p.words) +
            " words differ)";
  if (!p.detail.empty()) line += "; " + p.detail;
  return line;
}

}  // namespace

Finding check_p2p_status(const Facts& f) {
  const auto& n = f.nvml;
  if (n.status != ProbeStatus::kCompleted || !n.init_result || *n.init_result != 0)
    return finding("p2p.status", Status::kSkip, "NVML not available");
  if (n.device_count.value_or(0) < 2)
    return finding("p2p.status", Status::kSkip, "fewer than two GPUs");
  if (n.pairs.empty())
    return finding("p2p.status", Status::kUnknown, "NVML P2P status not recorded");
  const PairTally t = tally_pairs(n.pairs);
  const std::string total = std::to_string(n.pairs.size());
  if (t.bad.empty())
    return finding(
        "p2p.status", Status::kPass,
        "P2P read/write OK on all " + total + " pair(s)" +
            (t.nvlink ? " (" + std::to_string(t.nvlink) + " over NVLink)" : std::string()),
        t.ev);
  std::vector<std::string> reason_list(t.reasons.begin(), t.reasons.end());
  const std::string summary = "P2P not available on " + std::to_string(t.bad.size()) + " of " +
                              total + " pair(s): " + join(reason_list);
  if (auto expected = p2p_status_expected(f, t, summary)) return *expected;
  std::string hint = "see pcie.acs, iommu and module.params";
  if (t.regkey)
    hint = "DISABLED_BY_REGKEY: remove ForceP2P/RM P2P overrides from NVreg_RegistryDwords";
  if (t.reasons.count("GPU_NOT_SUPPORTED"))
    hint +=
        "; GPU_NOT_SUPPORTED: the driver does not enable P2P for this GPU model over PCIe (e.g. GeForce)";
  return finding("p2p.status", Status::kFail, summary, t.ev, hint);
}

Finding check_peer_copy(const Facts& f) {
  const auto& pc = f.peer_copy;
  if (pc.status == ProbeStatus::kNotRun)
    return finding("p2p.copy", Status::kSkip, "peer copy not run (" + pc.detail + ")");
  if (pc.status != ProbeStatus::kCompleted)
    return finding(
        "p2p.copy", Status::kFail,
        "peer-copy probe " + std::string(to_string(pc.status)) +
            (pc.detail.empty() ? "" : ": " + pc.detail),
        {},
        "a copy between GPUs hung or crashed the driver: check the kernel log (Xid, IOMMU faults) and rerun with "
        "NCCL_P2P_DISABLE=1 to confirm the P2P path is at fault");
  std::vector<std::string> ev, corrupt, failed, skipped, peer_limit;
  int ok = 0;
  for (const auto& p : pc.pairs) {
    ev.push_back(pair_evidence(p));
    if (p.either_write_is(CopyResult::kCorrupt))
      corrupt.push_back(pair_name(p));
    else if (p.either_write_is(CopyResult::kError) &&
             p.detail.find("CUDA_ERROR_TOO_MANY_PEERS") != std::string::npos)
      peer_limit.push_back(pair_name(p));  // the hardware's limit, not the host's fault
    else if (p.either_write_is(CopyResult::kError))
      failed.push_back(pair_name(p));
    else if (p.either_write_is(CopyResult::kOk))
      ++ok;
    else
      skipped.push_back(pair_name(p));
  }
  const bool self = pc.mode == PeerCopyMode::kSelf;
  const std::string hint =
      in_vm_passthrough(f)
          ? "the hypervisor advertises P2P that does not reach the peer (a GPUDirect clique the host cannot honour): "
            "take the GPUs of these pairs out of their clique on the host (see vfio.clique; p2pcheck vm plan says "
            "which GPUs can share one), and set NCCL_P2P_DISABLE=1 in this VM until then"
          : "check iommu (faults, iommu=pt) and pcie.acs; until fixed, NCCL_P2P_DISABLE=1 avoids the broken path";
  if (!corrupt.empty())
    return finding("p2p.copy", Status::kFail,
                   "P2P claimed but data did not arrive on " + std::to_string(corrupt.size()) +
                       " of " + std::to_string(pc.pairs.size()) + " pair(s): " + join_some(corrupt),
                   ev, hint);
  if (!failed.empty())
    return finding("p2p.copy", Status::kFail,
                   "peer copy failed with an error on " + std::to_string(failed.size()) +
                       " pair(s): " + join_some(failed),
                   ev,
                   "see the error on each pair; check the kernel log for Xid or IOMMU messages");
  if (!peer_limit.empty())
    return finding("p2p.copy", Status::kWarn,
                   "a GPU reached the hardware's limit of 8 peers on " +
                       std::to_string(peer_limit.size()) + " pair(s): " + join_some(peer_limit),
                   ev,
                   "peer access stays enabled until disabled: enable it for at most 8 peers of "
                   "one GPU at a time");
  if (pc.pairs.empty())
    return finding("p2p.copy", Status::kSkip,
                   "no pair with peer access to copy between" +
                       (pc.detail.empty() ? "" : " (" + pc.detail + ")"),
                   ev);
  if (ok == 0)
    return finding("p2p.copy", Status::kSkip, "no pair was copied: " + join_some(skipped), ev);
  if (self)
    return finding(
        "p2p.copy", Status::kPass,
        "one GPU: checked against itself, the patterned buffer arrived intact (no peer to copy to)",
        ev);
  return finding("p2p.copy", Status::kPass,
                 "data verified on the destination GPU for " + std::to_string(ok) +
                     " pair(s) with peer access" +
                     (skipped.empty() ? "" : "; " + std::to_string(skipped.size()) + " not run"),
                 ev);
}

}  // namespace p2p::doctor::rules
