// What else stands between a GPU and a job: processes already holding it, MIG, the vGPU licence,
// and whether the installed driver supports the GPU at all: as the driver says in the kernel log,
// and as NVIDIA's tables of architectures and branches say (driver_tables.cpp).
#include <algorithm>

#include "doctor/health_derived.hpp"
#include "doctor/knowledge/driver_statements.hpp"
#include "doctor/knowledge/driver_tables.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

const NvmlHealth* health_of(const GpuView& g) {
  return g.nvml != nullptr && g.nvml->health ? &*g.nvml->health : nullptr;
}

std::string process_text(const NvmlProcess& p) {
  std::string s = "pid " + std::to_string(p.pid) + " " + p.name.value_or("(name not visible)");
  if (p.used_memory_bytes) s += " holding " + bytes_text(*p.used_memory_bytes);
  return s;
}

Finding check_processes(const Facts& f) {
  std::vector<std::string> ev, held, first;
  int known = 0;
  for (const auto& g : gpus(f)) {
    const NvmlHealth* h = health_of(g);
    if (h == nullptr || !h->processes) continue;
    ++known;
    for (const auto& p : *h->processes) ev.push_back(g.bdf + ": " + process_text(p));
    if (h->processes->empty()) continue;
    held.push_back(g.bdf);
    if (first.empty()) first.push_back(process_text(h->processes->front()));
  }
  if (known == 0) return finding("gpu.processes", Status::kSkip, "process lists not collected");
  if (!held.empty())
    return finding("gpu.processes", Status::kWarn,
                   std::to_string(ev.size()) + " process(es) hold " + join_some(held) + " (" +
                       first.front() + (ev.size() > 1 ? ", ..." : "") + ")",
                   ev,
                   "stop them, or kill -9 <pid>; fuser -v /dev/nvidia* finds holders nvidia-smi "
                   "does not show (other containers' PID namespaces)");
  return finding("gpu.processes", Status::kPass,
                 "no process holds any of " + std::to_string(known) + " GPU(s)");
}

// CUDA devices that are MIG instances ("... MIG 3g.40gb").
bool cuda_sees_mig(const Facts& f) {
  return std::any_of(f.cuda.devices.begin(), f.cuda.devices.end(),
                     [](const CudaDevice& d) { return d.name.find(" MIG ") != std::string::npos; });
}

Finding check_mig(const Facts& f) {
  std::vector<std::string> ev, on, unseen, pending;
  int known = 0;
  for (const auto& g : gpus(f)) {
    const NvmlHealth* h = health_of(g);
    if (h == nullptr || !h->mig_mode_current) continue;
    ++known;
    if (h->mig_mode_pending && *h->mig_mode_pending != *h->mig_mode_current)
      pending.push_back(g.bdf);
    if (!*h->mig_mode_current) continue;
    on.push_back(g.bdf);
    ev.push_back(g.bdf + ": MIG mode on");
    if (g.cuda == nullptr) unseen.push_back(g.bdf);
  }
  if (known == 0) return finding("gpu.mig", Status::kSkip, "MIG mode not reported");
  const std::string fix =
      "turn MIG off where it is not wanted (nvidia-smi -mig 0, or nvidia-smi -i <bdf> -mig 0, "
      "then reset the GPU), or create GPU and compute instances and give each process one MIG "
      "device with CUDA_VISIBLE_DEVICES=MIG-<uuid> (nvidia-smi -L lists them)";
  if (!unseen.empty() && cuda_works(f) && !cuda_sees_mig(f))
    return finding("gpu.mig", Status::kFail,
                   "MIG mode on " + join_some(unseen) +
                       " and CUDA can use no instance there: those GPUs are lost to CUDA",
                   ev, fix);
  for (const auto& b : pending) ev.push_back(b + ": MIG mode changes at the next GPU reset");
  if (!on.empty() || !pending.empty())
    return finding("gpu.mig", Status::kWarn,
                   on.empty() ? "a MIG mode change waits for a GPU reset on " + join_some(pending)
                              : "MIG mode on " + join_some(on) +
                                    ": a CUDA process sees one MIG instance, and instances have no "
                                    "peer-to-peer",
                   ev, fix);
  return finding("gpu.mig", Status::kPass, "MIG off on " + std::to_string(known) + " GPU(s)");
}

Finding check_vgpu_license(const Facts& f) {
  std::vector<std::string> ev, unlicensed;
  int known = 0;
  for (const auto& g : gpus(f)) {
    const NvmlHealth* h = health_of(g);
    if (h == nullptr || !h->vgpu_licensed) continue;
    ++known;
    ev.push_back(g.bdf + ": " + (*h->vgpu_licensed ? "licensed" : "unlicensed") +
                 (h->vgpu_license_product ? " (" + *h->vgpu_license_product + ")" : ""));
    if (!*h->vgpu_licensed) unlicensed.push_back(g.bdf);
  }
  if (known == 0) return finding("gpu.vgpu_license", Status::kSkip, "no vGPU licence applies");
  if (f.daemons.present())
    ev.push_back(std::string("nvidia-gridd: ") +
                 (std::count(f.daemons.value.begin(), f.daemons.value.end(), "nvidia-gridd")
                      ? "running"
                      : "not running"));
  if (!unlicensed.empty())
    return finding("gpu.vgpu_license", Status::kFail,
                   "vGPU licence not held on " + join_some(unlicensed) +
                       ": NVIDIA restricts unlicensed vGPUs (performance, then CUDA)",
                   ev, "see the verdict: the licence must be acquired by nvidia-gridd");
  return finding("gpu.vgpu_license", Status::kPass,
                 "vGPU licence held on " + std::to_string(known) + " GPU(s)", ev);
}

Finding check_refusals(const Facts& f) {
  std::vector<std::string> ev, refused;
  std::string hint;
  for (const auto& s : driver_statements(f)) {
    if (s.kind == DriverStatement::Kind::kResetRequired) continue;
    ev.push_back("kernel log: " + s.quote);
    refused.insert(refused.end(), s.gpus.begin(), s.gpus.end());
    if (hint.empty()) hint = refusal_fix(s);
  }
  if (ev.empty()) return finding("driver.refused", Status::kSkip, "the driver refused no GPU");
  return finding("driver.refused", Status::kFail,
                 "the NVIDIA driver refuses " +
                     (refused.empty() ? std::string("a GPU") : join_some(refused)) +
                     ", and says why in the kernel log",
                 ev, hint);
}

// Why this driver cannot drive this GPU, by NVIDIA's tables; "" when it can.
std::string support_gap(const ArchitectureSupport& a, int branch, bool open) {
  if (a.last_branch != 0 && branch > a.last_branch)
    return "the " + std::to_string(branch) + " driver no longer supports " + a.architecture +
           " GPUs; the last branch that does is " + std::to_string(a.last_branch) +
           (*a.last_release ? std::string(" (") + a.last_release + ")" : std::string());
  if (a.first_branch != 0 && branch < a.first_branch)
    return "the " + std::to_string(branch) + " driver is older than support for " + a.architecture +
           " GPUs (from " + std::to_string(a.first_branch) + ")";
  if (open && !a.open_module)
    return std::string("the open kernel module cannot drive ") + a.architecture +
           " GPUs (no GSP); the proprietary module can";
  return "";
}

Finding check_support(const Facts& f) {
  const auto version = installed_driver(f);
  const auto branch = version ? driver_branch(*version) : std::nullopt;
  if (!branch) return finding("driver.gpu_support", Status::kSkip, "installed driver unknown");
  const bool open = open_module_installed(f);
  std::vector<std::string> ev, gaps;
  for (const auto& g : gpus(f)) {
    const ArchitectureSupport* a =
        g.pci != nullptr ? architecture_of_device(g.pci->device_id) : nullptr;
    if (a == nullptr) continue;
    const std::string gap = support_gap(*a, *branch, open);
    ev.push_back(g.bdf + ": " + a->architecture + (gap.empty() ? "" : ": " + gap));
    if (!gap.empty()) gaps.push_back(g.bdf);
  }
  if (ev.empty())
    return finding("driver.gpu_support", Status::kSkip, "no GPU of a known architecture");
  if (!gaps.empty())
    return finding("driver.gpu_support", Status::kFail,
                   "driver " + *version + (open ? " (open module)" : "") + " cannot drive " +
                       join_some(gaps) + " by NVIDIA's tables",
                   ev,
                   std::string("see the verdict; NVIDIA's legacy GPU list: ") + kLegacyGpuSource);
  return finding("driver.gpu_support", Status::kPass,
                 "driver " + *version + " supports the " + std::to_string(ev.size()) +
                     " GPU(s) by NVIDIA's tables",
                 ev);
}

}  // namespace

void gpu_state(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_refusals(f));
  out.push_back(check_support(f));
  out.push_back(check_processes(f));
  out.push_back(check_mig(f));
  out.push_back(check_vgpu_license(f));
}

}  // namespace p2p::doctor::rules
