// GSP firmware: whether the file the module needs is installed (gsp.firmware_file) and whether
// GSP runs on the GPUs at the module's version (gsp.state).
#include "doctor/derived.hpp"
#include "doctor/rules/rules_driver_checks.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

Finding check_firmware_file(const Facts& f) {
  const FirmwareCheck c = firmware_check(f);
  const LogSignals log = log_signals(f);
  std::vector<std::string> ev;
  if (!c.directory.empty()) ev.push_back("looked in " + c.directory + " for " + join(c.needed));
  if (!c.other_versions.empty())
    ev.push_back("other firmware versions present: " + join(c.other_versions));
  for (const auto& l : log.firmware_load) ev.push_back("kernel log: " + l);
  const std::string want =
      c.directory + "/" + (c.needed.empty() ? std::string("gsp_*.bin") : c.needed.front());
  using S = FirmwareCheck::State;
  switch (c.state) {
    case S::kNotNeeded:
      return finding("gsp.firmware_file", Status::kSkip, "no GPU that loads GSP firmware", ev);
    case S::kPresent: return finding("gsp.firmware_file", Status::kPass, want + " present", ev);
    case S::kElsewhere:
      return finding(
          "gsp.firmware_file", Status::kPass,
          "GSP runs on every GPU although " + want +
              " is not there: the kernel found the firmware elsewhere (firmware_class.path or built in)",
          ev);
    case S::kMissing:
      return finding(
          "gsp.firmware_file", Status::kFail, want + " missing: the module cannot boot GSP", ev,
          "install the firmware of exactly this driver version (same package as the module), "
          "rebuild the initramfs if it loads nvidia, then reload the module or reboot");
    case S::kOptional:
      return finding("gsp.firmware_file", Status::kPass,
                     want + " not installed; the proprietary module runs these GPUs with GSP off",
                     ev);
    case S::kNotVisible:
      if (!log.firmware_load.empty())
        return finding("gsp.firmware_file", Status::kFail,
                       "kernel log shows the GSP firmware load failing (the host's " + want + ")",
                       ev,
                       "on the host: install " + want +
                           " matching the module exactly, then reload the module");
      return finding(
          "gsp.firmware_file", Status::kUnknown,
          "the host's firmware is not visible from this container (" + want + " not here)", ev,
          "on the host: ls " + want);
    case S::kUnknown: break;
  }
  return finding("gsp.firmware_file", Status::kUnknown,
                 "cannot tell which GSP firmware file is needed or present", ev);
}

Finding check_gsp_state(const Facts& f) {
  const GspRun run = gsp_run(f);
  std::vector<std::string> ev;
  for (const auto& g : gpus(f)) {
    if (g.info != nullptr && g.info->gsp_firmware)
      ev.push_back(g.bdf + ": GSP Firmware " + *g.info->gsp_firmware);
    else if (g.nvml != nullptr && g.nvml->gsp_firmware_enabled)
      ev.push_back(g.bdf + ": NVML GSP " +
                   (*g.nvml->gsp_firmware_enabled ? "enabled " : "disabled ") +
                   g.nvml->gsp_firmware_version.value_or(""));
  }
  const int total = run.running + run.off + run.unknown;
  if (total == 0) return finding("gsp.state", Status::kSkip, "no GPU listed", ev);
  if (run.running + run.off == 0)
    return finding("gsp.state", Status::kUnknown,
                   "GSP state unknown (/proc/driver/nvidia/gpus not read, NVML not run)", ev);
  if (run.off_required > 0)
    return finding(
        "gsp.state", Status::kFail,
        "GSP not running on " + std::to_string(run.off_required) + " of " + std::to_string(total) +
            " GPUs, but this module/GPU generation requires it",
        ev,
        "see gsp.firmware_file and the kernel log (RmInitAdapter); reload the module or reset the GPU");
  const auto version = module_version(f);
  if (run.running > 0 && version && !run.versions.empty() &&
      (run.versions.size() > 1 || run.versions.front() != *version))
    return finding("gsp.state", Status::kWarn,
                   "GSP firmware " + join(run.versions) + " differs from the module " + *version,
                   ev, "install firmware and module from the same driver release");
  if (run.off > 0)
    return finding(
        "gsp.state", Status::kPass,
        "GSP off on " + std::to_string(run.off) + " GPU(s) (allowed with the proprietary module)",
        ev);
  return finding("gsp.state", Status::kPass,
                 "GSP firmware " + join(run.versions) + " running on " +
                     std::to_string(run.running) + " of " + std::to_string(total) + " GPUs",
                 ev);
}

}  // namespace p2p::doctor::rules
