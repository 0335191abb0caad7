// Causes of what keeps CUDA off a GPU by configuration or licence (the vGPU licence, MIG), and of
// what only shares or slows a GPU (other processes, application Xids, throttling, PCIe replays).
// The last group is ranked low: a host where nothing else is wrong still gets its name.
#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/health_derived.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/verdict/verdict_health.hpp"

namespace p2p::doctor {

namespace {

const Finding* with_status(const std::vector<Finding>& all, const std::string& id, Status s) {
  const Finding* f = find_finding(all, id);
  return f != nullptr && f->status == s ? f : nullptr;
}

// The GPUs a finding's evidence lines start with ("0000:41:00.0: ...", "0000:41:00.0 Xid 13").
std::vector<std::string> evidence_gpus(const Finding& f) {
  std::vector<std::string> out;
  for (const auto& line : f.evidence) {
    std::string bdf = line.substr(0, line.find(' '));
    if (!bdf.empty() && bdf.back() == ':') bdf.pop_back();
    const bool looks_like_bdf =
        bdf.size() == 12 && bdf[4] == ':' && bdf[7] == ':' && bdf[10] == '.';
    if (looks_like_bdf && std::find(out.begin(), out.end(), bdf) == out.end()) out.push_back(bdf);
  }
  return out;
}

std::vector<std::string> summary_and_evidence(const Finding& f) {
  std::vector<std::string> ev{f.summary};
  ev.insert(ev.end(), f.evidence.begin(), f.evidence.end());
  return ev;
}

std::string licence_fix(const Facts& f) {
  std::string fix =
      "license the vGPU: set the licensing server in /etc/nvidia/gridd.conf (ServerAddress, "
      "FeatureType) or place the client configuration token in /etc/nvidia/ClientConfigToken, "
      "restart nvidia-gridd and check nvidia-smi -q (License Status: Licensed)";
  const bool gridd = f.daemons.present() &&
                     std::count(f.daemons.value.begin(), f.daemons.value.end(), "nvidia-gridd") > 0;
  if (f.daemons.present() && !gridd)
    fix =
        "nvidia-gridd, the guest driver's licensing service, is not running: install and start it "
        "(some GRID driver packages lack its service unit; the previous GRID release may have it), "
        "then " +
        fix;
  const auto env = environment(f);
  if (env.kind == "vm" && !env.hypervisor.empty())
    fix +=
        "; on a provider's VM the licence server is the provider's: ask them if it is theirs "
        "that fails";
  return fix;
}

void licence_cause(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  if (const Finding* x = with_status(all, "gpu.vgpu_license", Status::kFail))
    out.push_back(scored_cause("vgpu_unlicensed", "vGPU licence not held", 20,
                               summary_and_evidence(*x), licence_fix(f), evidence_gpus(*x)));
}

void mig_cause(const std::vector<Finding>& all, std::vector<Cause>& out) {
  const Finding* failed = with_status(all, "gpu.mig", Status::kFail);
  const Finding* warned = with_status(all, "gpu.mig", Status::kWarn);
  const Finding* x = failed != nullptr ? failed : warned;
  if (x == nullptr) return;
  out.push_back(scored_cause("mig_enabled",
                             failed != nullptr ? "MIG mode on without instances CUDA can use"
                                               : "MIG mode: one MIG instance per CUDA process",
                             failed != nullptr ? 12 : 5, summary_and_evidence(*x), x->hint,
                             evidence_gpus(*x)));
}

void sharing_causes(const std::vector<Finding>& all, std::vector<Cause>& out) {
  if (const Finding* x = with_status(all, "gpu.processes", Status::kWarn))
    out.push_back(scored_cause(
        "gpu_processes", "Other processes hold the GPU", 3, summary_and_evidence(*x),
        x->hint + "; a process that survives kill -9 (a zombie, or one stuck in the driver) goes "
                  "only with a reboot",
        evidence_gpus(*x)));
  if (const Finding* x = with_status(all, "gpu.xid", Status::kWarn))
    out.push_back(scored_cause(
        "application_xid", "An application's error (Xid), not a failing GPU", 2,
        summary_and_evidence(*x),
        "restart the application that met it (NVIDIA's catalog: RESTART_APP); the GPU is not "
        "failing, so there is nothing to fix on the host. If one application keeps meeting it, "
        "debug that application (compute-sanitizer)",
        evidence_gpus(*x)));
  if (const Finding* x = with_status(all, "gpu.throttle", Status::kWarn))
    out.push_back(scored_cause("gpu_throttled", "Clocks held down (power or thermal)", 3,
                               summary_and_evidence(*x), x->hint, evidence_gpus(*x)));
  if (const Finding* x = with_status(all, "gpu.pcie_replay", Status::kWarn))
    out.push_back(scored_cause("pcie_replays", "PCIe packets replayed on a GPU link", 2,
                               summary_and_evidence(*x), x->hint, evidence_gpus(*x)));
}

}  // namespace

void usage_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  licence_cause(f, all, out);
  mig_cause(all, out);
  sharing_causes(all, out);
}

}  // namespace p2p::doctor
