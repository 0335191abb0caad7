// Health causes and their weights. A driver that refuses a GPU and says why outranks everything
// short of "no driver at all" (it is the diagnosis, in the driver's words); a GPU that is failing
// now (memory, NVLink, a reset it needs) outranks configuration causes, because no setting fixes
// it; what only slows or shares a GPU (throttling, other processes, application Xids) comes last.
#include "doctor/verdict/verdict_health.hpp"

#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/health_derived.hpp"
#include "doctor/knowledge/driver_statements.hpp"
#include "doctor/knowledge/driver_tables.hpp"
#include "doctor/rules/rules_util.hpp"
#include "doctor/verdict/verdict.hpp"

namespace p2p::doctor {

namespace {

void add_unique(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const auto& x : from)
    if (!x.empty() && std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
}

// Refusals the driver states, and gaps NVIDIA's tables show, for one kind of refusal.
void refusal_cause(const Facts& f, bool open_kind, std::vector<Cause>& out) {
  std::vector<std::string> ev, affected;
  std::string fix;
  for (const auto& s : driver_statements(f)) {
    const bool open = s.kind == DriverStatement::Kind::kOpenModuleNoGsp;
    if (s.kind == DriverStatement::Kind::kResetRequired || open != open_kind) continue;
    ev.push_back("the driver says: " + s.quote);
    add_unique(affected, s.gpus);
    if (fix.empty()) fix = refusal_fix(s);
  }
  const auto version = installed_driver(f);
  const auto branch = version ? driver_branch(*version) : std::nullopt;
  for (const auto& g : gpus(f)) {
    const ArchitectureSupport* a = g.pci ? architecture_of_device(g.pci->device_id) : nullptr;
    if (a == nullptr || !branch) continue;
    const bool open_gap = open_module_installed(f) && !a->open_module;
    const bool legacy_gap = a->last_branch != 0 && *branch > a->last_branch;
    if (open_kind ? !open_gap : !legacy_gap) continue;
    ev.push_back(g.bdf + (g.name.empty() ? "" : " " + g.name) + ": " + a->architecture + ", " +
                 (open_kind ? "no GSP, so not for the open kernel module"
                            : "last supported by the " + std::to_string(a->last_branch) +
                                  " branch (NVIDIA's legacy table); installed: " + *version));
    add_unique(affected, {g.bdf});
    if (fix.empty()) {
      DriverStatement s;
      s.kind = open_kind ? DriverStatement::Kind::kOpenModuleNoGsp
                         : DriverStatement::Kind::kLegacyBranch;
      s.legacy_branch = a->last_branch;
      s.driver = version;
      fix = refusal_fix(s);
    }
  }
  if (ev.empty()) return;
  out.push_back(open_kind ? scored_cause("open_module_unsupported",
                                         "The open kernel module cannot drive these GPUs (no GSP)",
                                         32, ev, fix, affected)
                          : scored_cause("driver_unsupported_gpu",
                                         "The installed driver does not support these GPUs", 32, ev,
                                         fix, affected));
}

std::vector<std::string> xid_gpus(const std::vector<XidEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) add_unique(out, {e.gpu});
  return out;
}

void memory_cause(const Facts& f, const FailingXids& xids, std::vector<Cause>& out) {
  std::vector<HealthReading> failing;
  std::vector<std::string> ev;
  for (const auto& g : gpus(f)) {
    HealthReading r = memory_reading(g);
    for (const auto& e : xids.memory)
      if (e.gpu == g.bdf) {
        r.failing.push_back("kernel log: " + e.line);
        r.needs_reset = true;
      }
    if (r.failing.empty()) continue;
    for (const auto& x : r.failing) ev.push_back(g.bdf + ": " + x);
    failing.push_back(r);
  }
  if (failing.empty()) return;
  std::vector<std::string> gpus_failing;
  for (const auto& r : failing) gpus_failing.push_back(r.gpu);
  out.push_back(scored_cause("gpu_memory",
                             "GPU memory is failing (uncorrectable errors, repair pending or "
                             "failed)",
                             24, ev, memory_fix(failing), gpus_failing));
}

void nvlink_cause(const FailingXids& xids, std::vector<Cause>& out) {
  if (xids.nvlink.empty()) return;
  std::vector<std::string> ev;
  for (const auto& e : xids.nvlink) ev.push_back("kernel log: " + e.line);
  const auto affected = xid_gpus(xids.nvlink);
  out.push_back(scored_cause(
      "nvlink_error",
      "Uncorrectable NVLink error (Xid " + std::to_string(xids.nvlink.front().xid) + ")", 24, ev,
      xid_action_text(XidAction::kNvlinkWorkflow, affected.front()), affected));
}

// NVML's view of a lost GPU joins the kernel log's, or stands alone.
void lost_cause(const Facts& f, std::vector<Cause>& out) {
  const LostDevices lost = lost_devices(f);
  if (lost.nvml_devices.empty()) return;
  for (auto& c : out)
    if (c.id == "gpu_lost") {
      c.evidence.insert(c.evidence.end(), lost.nvml_devices.begin(), lost.nvml_devices.end());
      add_unique(c.gpus, lost.gpus);
      return;
    }
  out.push_back(scored_cause("gpu_lost", "NVML has lost a GPU (fallen off the bus)", 26,
                             lost.nvml_devices, xid_action_text(XidAction::kRebootNode, "<bdf>"),
                             lost.gpus));
}

// The driver (or NVML) asks for a reset or reboot of a GPU whose failure no other cause explains
// (failing memory, NVLink, a lost GPU and a GSP timeout carry that reset in their own fix).
void reset_cause(const Facts& f, const FailingXids& xids, std::vector<Cause>& out) {
  std::vector<std::string> explained, ev, affected;
  for (const auto& c : out)
    if (c.id == "gpu_memory" || c.id == "nvlink_error" || c.id == "gpu_lost" ||
        c.id == "gsp_timeout")
      add_unique(explained, c.gpus);
  auto is_explained = [&](const std::string& b) {
    return std::find(explained.begin(), explained.end(), b) != explained.end();
  };
  bool reboot = false;
  for (const auto& g : gpus(f)) {
    const HealthReading r = recovery_reading(g);
    if (r.failing.empty() || is_explained(g.bdf)) continue;
    for (const auto& x : r.failing) ev.push_back(g.bdf + ": " + x);
    add_unique(affected, {g.bdf});
    reboot = reboot || r.needs_reboot;
  }
  for (const auto& e : xids.reset)
    if (!is_explained(e.gpu)) {
      ev.push_back("kernel log: " + e.line);
      add_unique(affected, {e.gpu});
      reboot = reboot || e.info->action == XidAction::kRebootNode;
    }
  for (const auto& s : statements_of(f, DriverStatement::Kind::kResetRequired)) {
    if (!s.gpus.empty() && std::all_of(s.gpus.begin(), s.gpus.end(), is_explained)) continue;
    if (std::count(ev.begin(), ev.end(), "kernel log: " + s.quote)) continue;  // the Xid 154 line
    ev.push_back("the driver says: " + s.quote);
    add_unique(affected, s.gpus);
    reboot = reboot || s.recovery_action == recovery_action::kNodeReboot;
  }
  if (ev.empty()) return;
  out.push_back(scored_cause("gpu_reset_required",
                             reboot ? "The driver asks for a node reboot" : "The GPU needs a reset",
                             22, ev, reset_fix(affected, reboot), affected));
}

}  // namespace

Cause scored_cause(std::string id, std::string title, int score, std::vector<std::string> evidence,
                   std::string fix, std::vector<std::string> gpus) {
  const char* confidence = score >= 10 ? "confirmed" : score >= 5 ? "likely" : "possible";
  return Cause{std::move(id),       std::move(title), score,          confidence,
               std::move(evidence), std::move(fix),   std::move(gpus)};
}

void health_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  refusal_cause(f, false, out);
  refusal_cause(f, true, out);
  const FailingXids xids = failing_xids(f);
  memory_cause(f, xids, out);
  nvlink_cause(xids, out);
  lost_cause(f, out);
  reset_cause(f, xids, out);
  usage_causes(f, all, out);
}

const std::set<std::string>& failing_gpu_causes() {
  static const std::set<std::string> kIds = {"gpu_memory", "gpu_lost", "gpu_reset_required",
                                             "nvlink_error", "gsp_timeout"};
  return kIds;
}

const std::set<std::string>& gpu_health_checks() {
  static const std::set<std::string> kIds = {"gpu.memory", "gpu.recovery", "gpu.xid", "gpu.mig",
                                             "gpu.vgpu_license"};
  return kIds;
}

}  // namespace p2p::doctor
