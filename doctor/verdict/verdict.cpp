// Ranking, state, headline, "ruled out" and "not verified from here".
#include "doctor/verdict/verdict.hpp"

#include <algorithm>
#include <set>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/knowledge/documented_causes.hpp"
#include "doctor/rules/rules_util.hpp"
#include "doctor/verdict/verdict_health.hpp"
#include "doctor/verdict/verdict_vfio.hpp"

namespace p2p::doctor {

namespace {

// Checks whose failure means CUDA itself cannot work (as opposed to P2P or link quality).
const std::set<std::string> kCudaBlocking = {"module.loaded",
                                             "module.flavour",
                                             "module.params",
                                             "module.binding",
                                             "gsp.firmware_file",
                                             "gsp.state",
                                             "kernel.log",
                                             "module.uvm",
                                             "uvm.hmm",
                                             "uvm.major",
                                             "versions.userspace",
                                             "versions.cuda_api",
                                             "cuda.library",
                                             "nvml.init",
                                             "cuda.init",
                                             "cuda.nvml_vs_cuinit",
                                             "devices.nodes",
                                             "devices.open",
                                             "cgroup",
                                             "fabric_manager",
                                             "compute_mode",
                                             "env",
                                             "driver.refused",
                                             "driver.gpu_support"};

Status status_of(const std::vector<Finding>& all, const std::string& id) {
  const Finding* f = find_finding(all, id);
  return f == nullptr ? Status::kSkip : f->status;
}

std::vector<std::string> ruled_out(const Facts& f, const std::vector<Finding>& all,
                                   const std::vector<Cause>& causes) {
  std::vector<std::string> out;
  auto suspected = [&](const std::string& id) {
    return std::any_of(causes.begin(), causes.end(), [&](const Cause& c) { return c.id == id; });
  };
  const NodeAccess a = node_access(f);
  if (a.attempted > 0 && a.failures.empty() && !suspected("device_access") &&
      !suspected("device_nodes")) {
    std::string line =
        "device permissions and cgroups ruled out: /dev/nvidia* opened read-write (" +
        std::to_string(a.opened) + " required nodes)";
    if (f.cgroup.hierarchy == std::optional<std::string>("v2") && !f.cgroup.v1_devices_path)
      line += "; no cgroup v1 devices.list, and the cgroup v2 device program allowed every open";
    out.push_back(line);
  }
  if (status_of(all, "module.uvm") == Status::kPass && status_of(all, "uvm.major") == Status::kPass)
    out.push_back("nvidia_uvm ruled out as absent: loaded, and " +
                  find_finding(all, "uvm.major")->summary);
  const LogSignals log = log_signals(f);
  const GspRun run = gsp_run(f);
  if (gsp_running_everywhere(f) && !suspected("gsp_firmware")) {
    std::string log_note;
    if (!log.firmware_load.empty() || !log.rm_init.empty())
      log_note = "; the firmware/RmInitAdapter failures in the log are older";
    else if (f.kernel.log_lines.present())
      log_note = ", no firmware or RmInitAdapter failure in the kernel log";
    out.push_back("GSP firmware ruled out: GSP " + join(run.versions) + " running on all " +
                  std::to_string(run.running) + " GPU(s)" + log_note);
  }
  const auto& h = f.kernel.uvm_disable_hmm;
  if (h.present() && (h.value == "Y" || h.value == "1") && log.hmm.empty())
    out.push_back("UVM/HMM (KASLR) ruled out: uvm_disable_hmm=Y");
  if (status_of(all, "versions.userspace") == Status::kPass)
    out.push_back("user-space/kernel version mismatch ruled out: " +
                  find_finding(all, "versions.userspace")->summary);
  if (status_of(all, "cuda.library") == Status::kPass)
    out.push_back("stub or forward-compat libcuda ruled out: " +
                  find_finding(all, "cuda.library")->summary);
  if (status_of(all, "module.flavour") == Status::kPass && module_flavour(f) == Flavour::kOpen)
    out.push_back("kernel-module flavour ruled out: the open module is loaded");
  if (status_of(all, "fabric_manager") == Status::kSkip && f.pci.present() && !gpus(f).empty())
    out.push_back("Fabric Manager ruled out: no NVSwitch on this host");
  if (status_of(all, "pcie.acs") == Status::kPass)
    out.push_back("ACS ruled out: " + find_finding(all, "pcie.acs")->summary);
  if (status_of(all, "bar1") == Status::kPass)
    out.push_back("small BAR1 ruled out: " + find_finding(all, "bar1")->summary);
  for (auto& line : documented_ruled_out(f)) out.push_back(std::move(line));
  if (status_of(all, "gpu.memory") == Status::kPass &&
      status_of(all, "gpu.recovery") == Status::kPass && status_of(all, "gpu.xid") == Status::kPass)
    out.push_back("failing GPU ruled out: " + find_finding(all, "gpu.memory")->summary + "; " +
                  find_finding(all, "gpu.recovery")->summary + "; " +
                  find_finding(all, "gpu.xid")->summary);
  return out;
}

std::vector<std::string> failing_gpus_of(const std::vector<Cause>& causes) {
  std::vector<std::string> out;
  for (const auto& c : causes)
    if (failing_gpu_causes().count(c.id))
      for (const auto& g : c.gpus)
        if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  std::sort(out.begin(), out.end());
  return out;
}

// " on 0000:41:00.0": the GPUs the top cause concerns, for the headline; " on 8 of 8 GPU(s)"
// where more than a few are named.
std::string on_gpus(const Facts& f, const std::vector<Cause>& causes) {
  if (causes.empty() || causes.front().gpus.empty()) return "";
  const auto& named = causes.front().gpus;
  const std::size_t total = gpus(f).size();
  if (named.size() > 3 && total >= named.size())
    return " on " + std::to_string(named.size()) + " of " + std::to_string(total) + " GPU(s)";
  return " on " + join_some(named);
}

// Causes that limit P2P (or a link) but leave CUDA working: while CUDA itself is blocked they rank
// below every cause that could explain the block, whatever their weight.
const std::set<std::string> kP2pOnlyCauses = {"vm_p2p",
                                              "vm_clique_unverified",
                                              "vm_clique_refused",
                                              "vm_clique_bad",
                                              "acs",
                                              "iommu",
                                              "geforce_p2p",
                                              "vgpu_p2p",
                                              "mig_p2p",
                                              "wsl_p2p",
                                              "p2p_data_lost",
                                              "p2p_unsupported",
                                              "p2p_regkey",
                                              "link_width",
                                              "nccl_p2p_disabled",
                                              "nccl_env",
                                              "peer_access_refused",
                                              "pcie_replays",
                                              "gpu_throttled"};

std::string where_text(const Facts& f) {
  const auto e = environment(f);
  if (e.kind == "container") {
    const std::string vm =
        e.hypervisor.empty()
            ? ""
            : (in_vm_passthrough(f) ? " in a VM with pass-through GPU(s)" : " in a VM");
    return "container (" + e.container + ")" + vm;
  }
  if (e.kind == "vm") return in_vm_passthrough(f) ? "VM with pass-through GPU(s)" : "VM";
  if (in_wsl(f)) return "WSL2";  // a VM that CPUID and DMI do not always show
  return e.kind == "bare-metal" ? "bare metal" : e.kind;
}

bool health_failed(const std::vector<Finding>& all) {
  return std::any_of(all.begin(), all.end(), [](const Finding& x) {
    return x.status == Status::kFail && gpu_health_checks().count(x.id) != 0;
  });
}

std::string unhealthy_headline(const Facts& f, const Verdict& v) {
  const std::string gpus_named =
      v.failing_gpus.empty() ? std::string("a GPU") : join_some(v.failing_gpus);
  std::string h = "GPU(s) failing: " + gpus_named + ", though " +
                  (cuda_works(f) ? "CUDA initialises on " +
                                       std::to_string(f.cuda.device_count.value_or(0)) + " GPU(s)"
                                 : std::string("nothing else blocks CUDA")) +
                  ". ";
  if (v.causes.empty()) return h + "See the failed checks";
  return h + "Most likely root cause: " + v.causes.front().title + on_gpus(f, v.causes) + " (" +
         v.causes.front().confidence + ")";
}

// Said only with no warning (a warning is "at_risk"), so it counts none.
std::string healthy_headline(const Facts& f) {
  // Without a CUDA probe (a replayed capture) NVML is the best witness; say that it is only NVML,
  // since "NVML works, cuInit fails" is exactly what this tool exists to catch.
  std::string h =
      f.cuda.status == ProbeStatus::kNotRun
          ? "healthy as far as checked: NVML works on " +
                std::to_string(f.nvml.device_count.value_or(0)) +
                " GPU(s) (cuInit not probed: " + f.cuda.detail + ")"
          : "healthy: CUDA works on " + std::to_string(f.cuda.device_count.value_or(0)) + " GPU(s)";
  const auto ver = module_version(f);
  if (ver) h += ", driver " + *ver;
  if (f.cuda.driver_version) h += " (CUDA " + cuda_version_string(*f.cuda.driver_version) + ")";
  h += ", " + where_text(f);
  return h;
}

// What failed, by kind: a CUDA blocker, or something that only limits P2P (or a GPU's health).
struct FailureKinds {
  bool blocking = false;
  bool p2p_limited = false;
  int warnings = 0;
};

FailureKinds failure_kinds(const std::vector<Finding>& all) {
  FailureKinds k;
  for (const auto& x : all) {
    if (x.status == Status::kWarn) ++k.warnings;
    if (x.status != Status::kFail) continue;
    if (kCudaBlocking.count(x.id) || documented_finding_blocks_cuda(x.id))
      k.blocking = true;
    else
      k.p2p_limited = true;
  }
  return k;
}

// "no NVIDIA driver: ...", with what is missing.
std::string no_driver_headline(const Facts& f) {
  std::string detail = "the nvidia kernel module is not loaded";
  if (f.cuda.status == ProbeStatus::kLibraryMissing) detail += " and libcuda.so.1 is not installed";
  if (f.pci.present() && gpus(f).empty()) detail += "; no NVIDIA GPU on the PCI bus";
  return "no NVIDIA driver: " + detail;
}

// How the headline of a host without a CUDA blocker starts: "CUDA works on N GPU(s)" where it was
// seen working.
std::string cuda_state_text(const Facts& f) {
  return cuda_works(f)
             ? "CUDA works on " + std::to_string(f.cuda.device_count.value_or(0)) + " GPU(s)"
             : std::string("no CUDA blocker found");
}

// What puts P2P at risk on a host where nothing failed: the top cause, or the first warning.
std::string at_risk_reason(const std::vector<Finding>& all, const Verdict& v) {
  if (!v.causes.empty()) return v.causes.front().title + " (" + v.causes.front().confidence + ")";
  for (const auto& x : all)
    if (x.status == Status::kWarn) return x.id + ": " + x.summary;
  return "see the warnings";
}

// The verdict's state and headline, from its ranked causes and failing GPUs and the findings.
void decide_state(const Facts& f, const std::vector<Finding>& all, Verdict& v) {
  const FailureKinds k = failure_kinds(all);
  // A VFIO guest's cliques (verdict_vfio.cpp): P2P lost to the VM's settings, or claimed unproved.
  const std::optional<VerdictState> vm_state = vfio_verdict_state(v.causes);
  const bool vm_p2p = vm_state == VerdictState::kDegraded;
  const std::string top = v.causes.empty() ? std::string() : v.causes.front().title;
  const std::string top_named =
      top.empty() ? top : top + on_gpus(f, v.causes) + " (" + v.causes.front().confidence + ")";

  if (!v.causes.empty() && v.causes.front().id == "no_driver") {
    v.state = VerdictState::kNoDriver;
    v.headline = no_driver_headline(f);
  } else if (const GpuUse use = gpu_use(f); (k.blocking || !use.unusable.empty()) &&
                                            use.working > 0 && !use.unusable.empty() &&
                                            !use.masked) {
    // Some GPUs work: "CUDA cannot work here" would send the user after the wrong problem.
    v.state = VerdictState::kPartial;
    v.unusable_gpus = use.unusable;
    v.headline = "CUDA works on " + std::to_string(use.working) + " of " +
                 std::to_string(use.expected) + " GPU(s); " + join_some(use.unusable) +
                 " cannot be used. " +
                 (top.empty() ? std::string("No single cause stands out: see the failed checks")
                              : "Most likely root cause: " + top_named);
  } else if (k.blocking) {
    v.state = VerdictState::kBroken;
    v.headline = top.empty()
                     ? "CUDA cannot work here; no single cause stands out: see the failed checks"
                     : "CUDA cannot work here. Most likely root cause: " + top_named;
  } else if (!v.failing_gpus.empty() || health_failed(all)) {
    // CUDA may well initialise on these GPUs: acceptance must still refuse them.
    v.state = VerdictState::kUnhealthy;
    v.headline = unhealthy_headline(f, v);
  } else if (k.p2p_limited || vm_p2p) {
    v.state = VerdictState::kDegraded;
    v.headline = cuda_state_text(f) + ", but P2P is limited. Most likely cause: " +
                 (top.empty() ? "see the failed checks" : top);
  } else if (vm_state == VerdictState::kInconclusive) {
    v.state = VerdictState::kInconclusive;
    v.headline = cuda_state_text(f) + "; " + top;
  } else if (f.cuda.status == ProbeStatus::kNotRun && !nvml_works(f)) {
    v.state = VerdictState::kInconclusive;
    v.headline =
        "no failure in what could be read; CUDA and NVML were not probed (" + f.cuda.detail + ")";
  } else if (k.warnings > 0) {
    // "healthy" is said only with no warning: a warning is a risk to P2P someone must read.
    v.state = VerdictState::kAtRisk;
    v.headline = cuda_state_text(f) + " (" + where_text(f) +
                 "); P2P at risk: " + at_risk_reason(all, v) +
                 (k.warnings > 1 ? " (" + std::to_string(k.warnings) + " warnings below)" : "");
  } else {
    v.state = VerdictState::kHealthy;
    v.headline = healthy_headline(f);
  }
}

}  // namespace

Verdict conclude(const Facts& f, const std::vector<Finding>& all) {
  Verdict v;
  v.causes = candidate_causes(f, all);
  std::stable_sort(v.causes.begin(), v.causes.end(),
                   [](const Cause& a, const Cause& b) { return a.score > b.score; });
  if (failure_kinds(all).blocking)
    std::stable_partition(v.causes.begin(), v.causes.end(),
                          [](const Cause& c) { return kP2pOnlyCauses.count(c.id) == 0; });
  v.failing_gpus = failing_gpus_of(v.causes);
  v.ruled_out = ruled_out(f, all, v.causes);
  for (const auto& x : all)
    if (x.status == Status::kUnknown) v.unverified.push_back(x.id + ": " + x.summary);
  decide_state(f, all, v);
  return v;
}

}  // namespace p2p::doctor
