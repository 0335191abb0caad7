// The kernel log (kernel.log): which known failure signatures it shows, and whether the present
// state of the driver says they are history.
#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/rules/rules_driver_checks.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

// The log's failure lines, each once, in the order of the signature groups; nouveau's own lines
// last, and only where nouveau holds a GPU.
std::vector<std::string> failure_lines(const LogSignals& s, bool nouveau_holds) {
  std::vector<std::string> bad;
  for (const auto* group : {&s.firmware_load, &s.rm_init, &s.wpr2, &s.hmm, &s.api_mismatch,
                            &s.open_required, &s.not_probed, &s.bar_space, &s.iommu_faults,
                            &s.gpu_lost, &s.gsp_timeout, &s.module_rejected})
    for (const auto& line : *group)
      if (std::find(bad.begin(), bad.end(), line) == bad.end()) bad.push_back(line);
  if (nouveau_holds)
    for (const auto& line : s.nouveau) bad.push_back(line);
  return bad;
}

// The kinds of failure the log shows, named for the summary, in a fixed order.
std::vector<std::string> failure_kinds(const LogSignals& s, bool nouveau_holds) {
  std::vector<std::string> kinds;
  if (!s.firmware_load.empty()) kinds.push_back("GSP firmware load");
  if (!s.rm_init.empty()) kinds.push_back("RmInitAdapter");
  if (!s.wpr2.empty()) kinds.push_back("WPR2 already up");
  if (!s.hmm.empty()) kinds.push_back("UVM HMM request_free_mem_region -34");
  if (!s.api_mismatch.empty()) kinds.push_back("API mismatch");
  if (!s.open_required.empty()) kinds.push_back("open kernel module required");
  if (nouveau_holds || !s.not_probed.empty())
    kinds.push_back("nouveau (or another driver) owns the GPU");
  if (!s.bar_space.empty()) kinds.push_back("PCI BAR space not assigned");
  if (!s.iommu_faults.empty()) kinds.push_back("IOMMU faults");
  if (!s.gpu_lost.empty()) kinds.push_back("GPU fell off the bus");
  if (!s.gsp_timeout.empty()) kinds.push_back("GSP RPC timeout");
  if (!s.module_rejected.empty()) kinds.push_back("module signature rejected");
  return kinds;
}

}  // namespace

Finding check_kernel_log(const Facts& f) {
  const auto& l = f.kernel.log_lines;
  if (l.seen == Seen::kNotChecked)
    return finding("kernel.log", Status::kSkip, "kernel log not collected");
  if (l.unknown())
    return finding("kernel.log", Status::kUnknown, "kernel log unreadable here (" + l.error + ")",
                   {}, "run as root, or read `dmesg | grep -E 'NVRM|nvidia|GSP|uvm'` on the host");
  if (l.absent()) return finding("kernel.log", Status::kUnknown, "no kernel log source found");
  const LogSignals s = log_signals(f);
  // nouveau's own lines are a failure only where nouveau holds a GPU (it may have been unloaded
  // since).
  const Binding held = binding(f);
  const bool nouveau_holds =
      held.other.count("nouveau") != 0 || (held.nouveau_loaded && !s.nouveau.empty());
  const std::vector<std::string> bad = failure_lines(s, nouveau_holds);
  const std::string from = " (" + f.kernel.log_source + ")";
  if (bad.empty())
    return finding(
        "kernel.log", Status::kPass,
        std::to_string(l.value.size()) + " NVIDIA-related lines, no failure signature" + from);
  const std::vector<std::string> kinds = failure_kinds(s, nouveau_holds);
  std::string hint;
  if (!s.wpr2.empty())
    hint =
        "WPR2 already up: the GPU was left initialised (e.g. by a VFIO guest); reset or cold-boot it";
  // The log keeps history: a failure that the present state contradicts is a note, not a fault.
  const bool init_failures_only = s.hmm.empty() && s.api_mismatch.empty() &&
                                  s.open_required.empty() && !nouveau_holds &&
                                  s.not_probed.empty() && s.bar_space.empty();
  // IOMMU faults do not stop CUDA; they stop peer traffic, which the iommu check weighs.
  const bool only_iommu = bad.size() == s.iommu_faults.size();
  if (only_iommu)
    return finding("kernel.log", Status::kWarn,
                   "kernel log shows IOMMU faults (" + std::to_string(s.iommu_faults.size()) +
                       " line(s)): see iommu" + from,
                   bad, "see iommu");
  const GpuUse use = gpu_use(f);
  const bool every_gpu_works = cuda_works(f) && use.unusable.empty();
  if (every_gpu_works ||
      (init_failures_only && gsp_running_everywhere(f) && !cuinit_result(f).value_or(0)))
    return finding(
        "kernel.log", Status::kWarn,
        "kernel log shows earlier failures (" + join(kinds) + "), but the driver works now" + from,
        bad, "nothing to do unless they recur; a reboot clears the history");
  return finding("kernel.log", Status::kFail, "kernel log shows failures: " + join(kinds) + from,
                 bad, hint);
}

}  // namespace p2p::doctor::rules
