// Causes of peer-to-peer trouble: what blocks or reroutes peer traffic (IOMMU, ACS), platforms
// without P2P between their GPUs (WSL2, vGPU, GeForce, MIG), data that did not arrive, BAR1 and
// link faults, P2P refused by the driver, and NCCL told not to use it.
#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/verdict/verdict_cause_support.hpp"
#include "doctor/verdict/verdict_vfio.hpp"

namespace p2p::doctor {

namespace {

// What keeps peer traffic from going direct: the IOMMU, ACS, or a platform without P2P.
void p2p_blocked_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  const Finding* p2p = find_finding(all, "p2p.status");
  vfio_causes(f, all, out);  // VFIO guests: GPUDirect cliques (verdict_vfio.cpp)
  // IOMMU faults on the GPUs are the IOMMU dropping their DMA: direct evidence, above ACS, which
  // only allows the IOMMU to see peer traffic (and which the kernel sets whenever the IOMMU is on).
  if (check_failed(all, "iommu"))
    from_finding(out, all, "iommu", "iommu", "The IOMMU blocks the GPUs' DMA (IOMMU faults)", 12,
                 gpus_named(f, log_signals(f).iommu_faults));
  if (check_failed(all, "pcie.acs"))
    from_finding(out, all, "pcie.acs", "acs", "PCIe ACS redirects peer traffic", 9);
  // Redirection on the root ports is the direct mechanism, the IOMMU's translation (5) only where
  // it ends up: ranked just above it.
  if (check_warned(all, "pcie.acs"))
    from_finding(out, all, "pcie.acs", "acs", "ACS redirection on the GPUs' root ports", 6);
  if (p2p != nullptr && p2p->status == Status::kWarn && in_wsl(f))
    from_finding(out, all, "p2p.status", "wsl_p2p", "WSL2: no peer-to-peer between GPUs", 6);
  else if (p2p != nullptr && p2p->status == Status::kWarn && in_vgpu_guest(f))
    from_finding(out, all, "p2p.status", "vgpu_p2p", "vGPU guest: no P2P between these vGPUs", 5);
  else if (p2p != nullptr && p2p->status == Status::kWarn && !in_vm_passthrough(f))
    from_finding(out, all, "p2p.status", "geforce_p2p",
                 "GeForce: no PCIe P2P on this product (not a misconfiguration)", 4);
  for (const auto& v : visible_devices(f))
    if (v.mig.size() >= 2)
      from_finding(out, all, "env", "mig_p2p", "MIG instances: no peer-to-peer between them", 4);
  if (check_warned(all, "iommu"))
    from_finding(out, all, "iommu", "iommu", "IOMMU translation on the GPUs", 5);
}

// Peer traffic that went wrong or is slowed: lost data, a small BAR1, a narrow or erring link.
void p2p_data_and_link_causes(const Facts& f, const std::vector<Finding>& all,
                              std::vector<Cause>& out) {
  if (check_failed(all, "p2p.copy")) {
    // A pair that failed with a documented CUDA code is that code's row (documented_cuda.cpp),
    // not lost data: only corrupt pairs and unexplained errors are.
    std::vector<std::string> affected;
    for (const auto& p : f.peer_copy.pairs)
      if (p.either_write_is(CopyResult::kCorrupt) ||
          (p.went_wrong() && p.detail.find("CUDA_ERROR_") == std::string::npos))
        for (const auto& b : {p.src_bus_id, p.dst_bus_id})
          if (std::find(affected.begin(), affected.end(), normalize_bdf(b)) == affected.end())
            affected.push_back(normalize_bdf(b));
    if (!affected.empty())
      from_finding(out, all, "p2p.copy", "p2p_data_lost", "P2P claimed but data did not arrive", 11,
                   affected);
  }
  if (check_failed(all, "bar1")) {
    const auto init_failed = small_bar1(f).init_failed;
    if (init_failed.empty())
      from_finding(out, all, "bar1", "bar1", "256 MiB BAR1 (Above-4G / Resizable BAR off)", 9);
    else
      from_finding(out, all, "bar1", "bar1",
                   "GPU cannot initialise with a 256 MiB BAR1 (Above-4G / Resizable BAR off)", 20,
                   init_failed);
  }
  if (check_failed(all, "pcie.link"))
    from_finding(out, all, "pcie.link", "link_width", "PCIe link trained narrower than capable", 8);
  if (check_failed(all, "pcie.aer"))
    from_finding(out, all, "pcie.aer", "aer", "PCIe errors (AER) on a GPU link", 6);
}

// P2P refused by the driver (a registry key, or unsupported where nothing above explains it). NCCL
// told not to use it is a documented row (documented_nccl.cpp).
void p2p_refused_causes(const std::vector<Finding>& all, std::vector<Cause>& out) {
  const Finding* p2p = find_finding(all, "p2p.status");
  if (p2p != nullptr && p2p->status == Status::kFail) {
    const bool regkey = p2p->summary.find("DISABLED_BY_REGKEY") != std::string::npos;
    const bool explained = std::any_of(
        out.begin(), out.end(), [](const Cause& c) { return c.id == "acs" || c.id == "iommu"; });
    if (regkey)
      from_finding(out, all, "p2p.status", "p2p_regkey", "P2P disabled by a driver registry key",
                   10);
    else if (!explained)
      from_finding(out, all, "p2p.status", "p2p_unsupported",
                   "P2P not supported by this GPU/chipset/topology", 7);
  }
}

}  // namespace

void p2p_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  p2p_blocked_causes(f, all, out);
  p2p_data_and_link_causes(f, all, out);
  p2p_refused_causes(all, out);
}

}  // namespace p2p::doctor
