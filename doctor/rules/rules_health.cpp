// GPU health: memory (ECC, retired pages, remapped rows), the recovery the driver asks for, the
// Xids of the kernel log judged by NVIDIA's catalog, throttling and PCIe replays. A GPU that is
// failing fails its check even when CUDA initialises on it: acceptance must catch it.
#include <algorithm>

#include "doctor/health_derived.hpp"
#include "doctor/knowledge/driver_statements.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor::rules {

namespace {

constexpr std::size_t kMaxXidEvidence = 12;

std::vector<std::string> failing_gpus(const std::vector<HealthReading>& readings) {
  std::vector<std::string> out;
  for (const auto& r : readings)
    if (!r.failing.empty()) out.push_back(r.gpu);
  return out;
}

void add_evidence(const HealthReading& r, std::vector<std::string>& ev) {
  for (const auto& x : r.failing) ev.push_back(r.gpu + ": " + x);
  for (const auto& x : r.warnings) ev.push_back(r.gpu + ": " + x);
}

Finding check_memory(const Facts& f) {
  std::vector<HealthReading> readings;
  std::vector<std::string> ev;
  int reporting = 0;
  for (const auto& g : gpus(f)) {
    readings.push_back(memory_reading(g));
    add_evidence(readings.back(), ev);
    const auto* h = g.nvml != nullptr && g.nvml->health ? &*g.nvml->health : nullptr;
    if (h != nullptr &&
        (h->ecc_volatile_uncorrected || h->remapped_rows_pending || h->retired_pages_pending))
      ++reporting;
  }
  const auto failing = failing_gpus(readings);
  if (!failing.empty()) {
    std::vector<HealthReading> bad;
    for (const auto& r : readings)
      if (!r.failing.empty()) bad.push_back(r);
    return finding(
        "gpu.memory", Status::kFail,
        "failing GPU memory on " + join_some(failing) + ": " + bad.front().failing.front(), ev,
        memory_fix(bad));
  }
  if (reporting == 0)
    return finding("gpu.memory", Status::kSkip,
                   health_collected(f) ? "no GPU reports ECC, retired pages or remapped rows"
                                       : "no NVML health facts (not collected here)",
                   ev);
  if (!ev.empty())
    return finding("gpu.memory", Status::kWarn,
                   "memory errors were corrected or repaired: " + ev.front(), ev,
                   "watch the counts: rising corrected errors precede uncorrectable ones");
  return finding("gpu.memory", Status::kPass,
                 "ECC reports no uncorrectable error and nothing pending on " +
                     std::to_string(reporting) + " GPU(s)",
                 ev);
}

Finding check_recovery(const Facts& f) {
  std::vector<std::string> ev, failing;
  bool reboot = false, known = false;
  for (const auto& g : gpus(f)) {
    const HealthReading r = recovery_reading(g);
    known = known || (g.nvml != nullptr && g.nvml->health && g.nvml->health->recovery_action);
    add_evidence(r, ev);
    if (!r.failing.empty()) failing.push_back(r.gpu);
    reboot = reboot || r.needs_reboot;
  }
  const LostDevices lost = lost_devices(f);
  for (const auto& d : lost.nvml_devices) ev.push_back(d);
  for (const auto& s : statements_of(f, DriverStatement::Kind::kResetRequired)) {
    ev.push_back("kernel log: " + s.quote);
    for (const auto& g : s.gpus)
      if (std::find(failing.begin(), failing.end(), g) == failing.end()) failing.push_back(g);
    reboot = reboot || s.recovery_action == recovery_action::kNodeReboot;
  }
  if (!failing.empty() || !lost.nvml_devices.empty())
    return finding("gpu.recovery", Status::kFail,
                   (failing.empty() ? "NVML has lost a GPU"
                                    : "the driver asks for recovery of " + join_some(failing)),
                   ev, reset_fix(failing, reboot || !lost.nvml_devices.empty()));
  if (!ev.empty())  // reset requests the log holds without a GPU named
    return finding("gpu.recovery", Status::kFail, "the driver asks for a GPU reset", ev,
                   reset_fix({}, reboot));
  if (!known)
    return finding("gpu.recovery", Status::kSkip,
                   "recovery action not reported (older driver or "
                   "not collected)");
  return finding("gpu.recovery", Status::kPass, "NVML asks for no recovery on any GPU");
}

std::string xid_evidence(const XidEvent& e) {
  std::string what = e.info != nullptr ? std::string(e.info->name) + ", " + to_string(e.severity) +
                                             ", NVIDIA: " + xid_action_name(e.info->action)
                                       : std::string("not in NVIDIA's catalog");
  return (e.gpu.empty() ? std::string("?") : e.gpu) + " Xid " + std::to_string(e.xid) + " (" +
         what + (e.current ? "" : ", before the driver was loaded again") + "): " + e.line;
}

// The GPU an Xid line names, for a summary: "GPU has fallen off the bus" alone names none.
std::string xid_gpu(const XidEvent& e) {
  return e.gpu.empty() ? std::string("a GPU the log line does not name") : e.gpu;
}

Finding check_xids(const Facts& f) {
  if (!f.kernel.log_lines.present())
    return finding("gpu.xid", Status::kSkip, "kernel log not read: no Xid to judge");
  const auto events = xid_events(f);
  std::vector<std::string> ev, failing, application;
  const XidEvent* worst = nullptr;
  for (const auto& e : events) {
    if (ev.size() < kMaxXidEvidence) ev.push_back(xid_evidence(e));
    if (!e.current) continue;
    if (e.severity == XidSeverity::kFailing) {
      if (std::find(failing.begin(), failing.end(), xid_gpu(e)) == failing.end())
        failing.push_back(xid_gpu(e));
      if (worst == nullptr) worst = &e;
    } else if (e.severity == XidSeverity::kApplication) {
      application.push_back(xid_gpu(e) + " Xid " + std::to_string(e.xid));
    }
  }
  if (ev.size() < events.size())
    ev.push_back("(+" + std::to_string(events.size() - ev.size()) + " more Xid lines)");
  if (worst != nullptr && worst->info != nullptr)  // failing Xids are all in the catalog
    return finding(
        "gpu.xid", Status::kFail,
        "the kernel log shows Xid " + std::to_string(worst->xid) + " (" + worst->info->name +
            ") on " + join_some(failing) + ": the GPU cannot be trusted until " +
            (worst->info->action == XidAction::kRecoveryChanged
                 ? std::string("the recovery action the line names is taken")
                 : std::string(xid_action_name(worst->info->action))),
        ev, xid_action_text(worst->info->action, worst->gpu) + " (" + kXidCatalogSource + ")");
  if (!application.empty())
    return finding("gpu.xid", Status::kWarn,
                   "Xid(s) an application caused: " + join_some(application) +
                       "; the GPU itself is not failing",
                   ev, "restart the application that met it (NVIDIA: RESTART_APP)");
  if (!events.empty())
    return finding("gpu.xid", Status::kPass,
                   std::to_string(events.size()) +
                       " Xid line(s), none failing a GPU now (informational or before the driver "
                       "was loaded again)",
                   ev);
  return finding("gpu.xid", Status::kPass, "no Xid in the kernel log");
}

Finding check_throttle(const Facts& f) {
  std::vector<std::string> ev, slowed;
  int known = 0;
  for (const auto& g : gpus(f)) {
    if (g.nvml == nullptr || !g.nvml->health || !g.nvml->health->clock_event_reasons) continue;
    ++known;
    const HealthReading r = throttle_reading(g);
    add_evidence(r, ev);
    if (!r.warnings.empty()) slowed.push_back(g.bdf);
  }
  if (known == 0) return finding("gpu.throttle", Status::kSkip, "clock event reasons not reported");
  if (!slowed.empty())
    return finding("gpu.throttle", Status::kWarn,
                   "clocks held down on " + join_some(slowed) + ": " + ev.front(), ev,
                   "check the GPU's power cables and supply (power brake), airflow and fans "
                   "(thermal); measurements on a throttled GPU understate it");
  return finding("gpu.throttle", Status::kPass,
                 "no hardware or thermal slowdown on " + std::to_string(known) + " GPU(s)");
}

// Replays since the driver loaded worth a warning. A replay is a retransmitted packet the link
// recovered from; a healthy H200 here showed 1. DCGM's health watch judges a rate (more than 8
// a minute); the counter carries no time base, so a count this high over any uptime is the
// sign, and fewer are listed in a passing finding.
constexpr std::uint64_t kReplaysWorthAWarning = 100;

Finding check_replays(const Facts& f) {
  std::vector<std::string> ev, replaying, few;
  int known = 0;
  for (const auto& g : gpus(f)) {
    if (g.nvml == nullptr || !g.nvml->health || !g.nvml->health->pcie_replay_count) continue;
    ++known;
    const std::uint64_t n = *g.nvml->health->pcie_replay_count;
    if (n == 0) continue;
    (n >= kReplaysWorthAWarning ? replaying : few).push_back(g.bdf);
    ev.push_back(g.bdf + ": " + std::to_string(n) + " PCIe replay(s) since the driver loaded");
  }
  if (known == 0)
    return finding("gpu.pcie_replay", Status::kSkip, "PCIe replay counter not reported");
  if (!replaying.empty())
    return finding("gpu.pcie_replay", Status::kWarn,
                   "PCIe packets replayed on " + join_some(replaying) + " (" + ev.front() + ")", ev,
                   "reseat the GPU and any riser; replays that keep rising mean a marginal link");
  if (!few.empty())
    return finding("gpu.pcie_replay", Status::kPass,
                   "a few PCIe replays, under " + std::to_string(kReplaysWorthAWarning) +
                       " since the driver loaded (" + ev.front() +
                       "); run doctor again later: a count that keeps rising means a marginal link",
                   ev);
  return finding("gpu.pcie_replay", Status::kPass,
                 "no PCIe replay on " + std::to_string(known) + " GPU(s)");
}

}  // namespace

void health(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_memory(f));
  out.push_back(check_recovery(f));
  out.push_back(check_xids(f));
  out.push_back(check_throttle(f));
  out.push_back(check_replays(f));
}

}  // namespace p2p::doctor::rules
