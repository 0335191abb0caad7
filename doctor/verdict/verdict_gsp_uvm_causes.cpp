// Causes in the GPU's firmware and in UVM: GSP firmware missing, turned off or refusing to boot
// (with the WPR2 case of a GPU left initialised), GSP that stopped answering, the UVM/HMM (KASLR)
// failure, and nvidia_uvm left broken by suspend/resume.
#include <algorithm>
#include <utility>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/rules/rules_util.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/verdict/verdict_cause_support.hpp"

namespace p2p::doctor {

namespace {

// RmInitAdapter failed only on GPUs with a 256 MiB BAR1, with no sign of a firmware problem: the
// BAR (Resizable BAR / Above 4G Decoding off) is the cause, and the bar1 check says so.
bool rm_init_explained_by_bar1(const Facts& f, const LogSignals& log, const FirmwareCheck& fw) {
  if (log.rm_init.empty() || !log.firmware_load.empty()) return false;
  if (fw.state == FirmwareCheck::State::kMissing) return false;
  const auto failing = gpus_named(f, log.rm_init);
  const auto small = small_bar1(f).init_failed;
  return !failing.empty() && std::all_of(failing.begin(), failing.end(), [&](const std::string& b) {
    return std::find(small.begin(), small.end(), b) != small.end();
  });
}

// The firmware cause's score and evidence: how strongly the kernel log, the firmware files, the
// module parameters and the GSP state point at the firmware.
struct GspEvidence {
  int score = 0;
  std::vector<std::string> ev;
};

GspEvidence gsp_evidence(const Facts& f, const LogSignals& log, const FirmwareCheck& fw,
                         const GspRun& run) {
  bool needs_gsp = module_flavour(f) == Flavour::kOpen;
  for (const auto& g : gpus(f)) needs_gsp = needs_gsp || g.generation.needs_open_module;
  int score = 0;
  std::vector<std::string> ev;
  if (!log.firmware_load.empty()) {
    score += 10;
    for (const auto& l : log.firmware_load) ev.push_back("kernel log: " + l);
  }
  if (!log.rm_init.empty()) {
    score += 6;
    for (const auto& l : log.rm_init) ev.push_back("kernel log: " + l);
  }
  if (fw.state == FirmwareCheck::State::kMissing) {
    score += 10;
    ev.push_back(fw.directory + "/" + join(fw.missing) + " missing" +
                 (fw.other_versions.empty()
                      ? ""
                      : " (firmware present only for " + join(fw.other_versions) + ")"));
  }
  if (const auto p = param_number(f, "EnableGpuFirmware"); p && *p == 0 && needs_gsp) {
    score += 10;
    ev.push_back("EnableGpuFirmware=0: GSP turned off by a module parameter");
  }
  if (run.off_required > 0) {
    score += 5;
    ev.push_back("GSP not running on " + std::to_string(run.off_required) +
                 " GPU(s) that require it (/proc/driver/nvidia/gpus/*/information)");
  }
  const auto init = cuinit_result(f);
  const bool cuda_failed = init && *init != 0;
  if (score > 0 && cuda_failed) {
    score += 2;
    ev.push_back("cuInit = " + std::to_string(*init) + " " + cu_result_name(*init));
  }
  if (score == 0 && fw.state == FirmwareCheck::State::kNotVisible && cuda_failed &&
      run.running == 0) {
    // Nothing points at the firmware, but nothing clears it either: the host's files are out of
    // sight.
    score = 3;
    ev.push_back("the host's " + fw.directory +
                 " cannot be seen from this container; the kernel log shows no firmware failure");
  }
  return {score, std::move(ev)};
}

// Install the firmware of exactly this driver: the fix when the firmware itself is the problem.
std::string firmware_fix(const Facts& f, const LogSignals& log, const FirmwareCheck& fw) {
  const std::string ver = module_version(f).value_or("<module version>");
  std::string fix =
      "install the GSP firmware of exactly this driver on the host (/lib/firmware/nvidia/" + ver +
      "/" + (fw.needed.empty() ? std::string("gsp_ga10x.bin") : fw.needed.front()) +
      ", shipped with the same driver package as the module), rebuild the initramfs if it loads nvidia, "
      "then reload the module or reboot; use a driver release that supports these GPUs (Blackwell: open modules)";
  if (!log.wpr2.empty()) fix += "; WPR2 already up: reset or cold-boot the GPU first";
  return fix;
}

// The GPUs the failure lines of the kernel log name.
std::vector<std::string> gsp_logged_gpus(const Facts& f, const LogSignals& log) {
  std::vector<std::string> lines = log.firmware_load;
  lines.insert(lines.end(), log.rm_init.begin(), log.rm_init.end());
  lines.insert(lines.end(), log.wpr2.begin(), log.wpr2.end());
  return gpus_named(f, lines);
}

// The GPUs the failure concerns: every GPU running without GSP, and those the failure lines name.
// The log names only the GPUs whose lines it happened to keep; gsp.state counts all of them.
std::vector<std::string> gsp_affected_gpus(const Facts& f, const LogSignals& log) {
  auto affected = gsp_logged_gpus(f, log);
  for (const auto& g : gpus(f))
    if (g.info != nullptr && g.info->gsp_firmware && *g.info->gsp_firmware == "N/A" &&
        std::find(affected.begin(), affected.end(), g.bdf) == affected.end())
      affected.push_back(g.bdf);
  std::sort(affected.begin(), affected.end());
  return affected;
}

// The fix when the firmware is fine but a GPU was left initialised: reset that GPU.
std::string wpr2_reset_fix(const std::vector<std::string>& affected) {
  const std::string first = affected.empty() ? std::string("<bdf>") : affected.front();
  return "WPR2 already up: the firmware is installed and boots on the other GPUs, but this GPU was left initialised; reset " +
         join(affected) + " (no process may use it: nvidia-smi -r -i " + first +
         ", or echo 1 > /sys/bus/pci/devices/" + first +
         "/reset), or power-cycle the host; then reload nvidia. If a VM used this GPU, let the host reset it after the VM stops";
}

void gsp_cause(const Facts& f, std::vector<Cause>& out) {
  // GSP running on every GPU clears the firmware, whatever older log lines say.
  if (gsp_running_everywhere(f)) return;
  const LogSignals log = log_signals(f);
  const FirmwareCheck fw = firmware_check(f);
  const GspRun run = gsp_run(f);
  if (rm_init_explained_by_bar1(f, log, fw)) return;
  GspEvidence found = gsp_evidence(f, log, fw, run);
  if (found.score == 0) return;
  for (const auto& l : log.wpr2) found.ev.push_back("kernel log: " + l);
  std::string fix = firmware_fix(f, log, fw);
  const auto affected = gsp_affected_gpus(f, log);
  const auto logged = gsp_logged_gpus(f, log);
  if (!affected.empty() && logged.size() < affected.size())
    found.ev.push_back("GSP not running on " + std::to_string(affected.size()) + " of " +
                       std::to_string(gpus(f).size()) + " GPU(s); the kernel log names " +
                       std::to_string(logged.size()) +
                       (logged.empty() ? std::string() : " (" + join_some(logged) + ")"));
  // The firmware is where it belongs and boots elsewhere: a GPU left initialised (by a VFIO guest,
  // a crash) refuses a second boot until it is reset.
  const bool firmware_fine = (fw.state == FirmwareCheck::State::kPresent ||
                              fw.state == FirmwareCheck::State::kElsewhere) &&
                             log.firmware_load.empty() && run.running > 0;
  if (firmware_fine && !log.wpr2.empty()) fix = wpr2_reset_fix(affected);
  out.push_back(make_cause("gsp_firmware",
                           firmware_fine ? "GPU initialisation (GSP boot) failed on some GPUs"
                                         : "GSP firmware / kernel-driver support",
                           found.score, found.ev, fix, affected));
}

// GSP-RM, the firmware that runs the GPU, stopped answering the driver (Xid 119/120): the firmware
// file was found and booted, so reinstalling it does not help.
void gsp_timeout_cause(const Facts& f, std::vector<Cause>& out) {
  const LogSignals log = log_signals(f);
  if (log.gsp_timeout.empty()) return;
  out.push_back(make_cause(
      "gsp_timeout", "GSP firmware stopped answering (Xid 119/120)", 16,
      log_evidence(log.gsp_timeout),
      "reset the GPU (nvidia-smi -r -i <bdf>, no process may use it) or reboot; install a newer driver of the branch "
      "(the Xid 119 timeouts of the first 525 releases are fixed in 525.105.17); with the proprietary module on a GPU "
      "older than Blackwell, `options nvidia NVreg_EnableGpuFirmware=0` runs it without GSP"));
  out.back().gpus = gpus_named(f, log.gsp_timeout);
}

// UVM's HMM failing under KASLR: named by the kernel log, or inferred from cuInit = 3 with the open
// module and nvidia_uvm loaded.
void hmm_cause(const Facts& f, const std::vector<Cause>& so_far, std::vector<Cause>& out) {
  if (cuda_works(f)) return;  // UVM came up: whatever the log remembers is history
  const LogSignals log = log_signals(f);
  const auto& h = f.kernel.uvm_disable_hmm;
  const auto init = cuinit_result(f);
  std::vector<std::string> ev;
  int score = 0;
  if (!log.hmm.empty()) {
    score = 12;
    for (const auto& l : log.hmm) ev.push_back("kernel log: " + l);
  } else if (init && *init == 3 && module_flavour(f) == Flavour::kOpen &&
             uvm_loaded(f) == Tri::kYes) {
    const bool disabled = h.present() && (h.value == "Y" || h.value == "1");
    if (disabled) return;
    score = h.present() ? 6 : 4;
    ev.push_back("cuInit = 3 CUDA_ERROR_NOT_INITIALIZED with the open kernel module");
    ev.push_back(h.present() ? "uvm_disable_hmm=" + h.value + " (HMM enabled)"
                             : "uvm_disable_hmm unreadable (HMM may be on)");
    // Strong firmware evidence explains cuInit = 3 by itself; HMM stays a candidate, ranked below.
    for (const auto& c : so_far)
      if (c.id == "gsp_firmware" && c.score >= 10) score = 3;
  }
  if (score == 0) return;
  if (h.present() && !log.hmm.empty()) ev.push_back("uvm_disable_hmm=" + h.value);
  out.push_back(make_cause(
      "uvm_hmm", "UVM/HMM (KASLR) failure", score, ev,
      "on the host: set `options nvidia_uvm uvm_disable_hmm=1` in /etc/modprobe.d and reload nvidia_uvm "
      "(or boot with nokaslr); CUDA 13 release notes list this as a known issue"));
}

// cuInit = 999 while nvidia_uvm is loaded, its node has the right major and every node opens:
// UVM itself is in a bad state, the classic aftermath of a suspend/resume cycle.
void uvm_stale_cause(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  const auto init = cuinit_result(f);
  if (!init || *init != 999 || uvm_loaded(f) != Tri::kYes || !nvml_works(f)) return;
  if (check_failed(all, "uvm.major") || check_failed(all, "devices.open") ||
      check_failed(all, "devices.nodes"))
    return;
  const LogSignals log = log_signals(f);
  std::vector<std::string> ev{
      "cuInit = 999 CUDA_ERROR_UNKNOWN while NVML works, nvidia_uvm is "
      "loaded and its node has the right major"};
  const auto slept = log_evidence(log.suspend);
  ev.insert(ev.end(), slept.begin(), slept.end());
  out.push_back(make_cause(
      "uvm_stale",
      log.suspend.empty() ? "nvidia_uvm in a bad state" : "nvidia_uvm broken by suspend/resume",
      log.suspend.empty() ? 4 : 10, ev,
      "stop the processes that use the GPU, then reload nvidia_uvm (rmmod nvidia_uvm && modprobe nvidia_uvm) or "
      "reboot; to keep CUDA working across suspend, set `options nvidia NVreg_PreserveVideoMemoryAllocations=1` and "
      "enable nvidia-suspend.service, nvidia-resume.service and nvidia-hibernate.service"));
}

}  // namespace

void gsp_uvm_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  gsp_cause(f, out);
  gsp_timeout_cause(f, out);
  hmm_cause(f, out, out);
  uvm_stale_cause(f, all, out);
}

}  // namespace p2p::doctor
