#include "bench/sharing.hpp"

#include "common/byte_size.hpp"

namespace p2p::bench {

namespace {

std::string describe(const GpuProcess& p) {
  std::string what = p.name.empty() ? "" : p.name + ", ";
  what += p.kind;
  if (p.used_bytes) what += ", " + format_bytes(*p.used_bytes, ByteStyle::kCompact);
  return "pid " + std::to_string(p.pid) + " (" + what + ")";
}

}  // namespace

SharingLook look_for_sharing(const std::vector<GpuActivity>& gpus, const std::set<long>& own,
                             const std::string& when) {
  SharingLook look;
  for (const auto& g : gpus) {
    const std::string where = when + ": " + g.pci_bus_id + ": ";
    bool other_process = false;
    for (const auto& p : g.processes) {
      if (own.count(p.pid) != 0) continue;
      other_process = true;
      look.pids.insert(p.pid);
      look.notes.push_back(where + describe(p));
    }
    for (long pid : g.p2pcheck_runs) {
      if (own.count(pid) != 0) continue;
      look.pids.insert(pid);
      look.notes.push_back(where + "another p2pcheck run, pid " + std::to_string(pid) +
                           ", holds its lock");
    }
    if (when == "before" && !other_process && g.utilization_percent &&
        *g.utilization_percent >= kBusyUtilizationPercent)
      look.notes.push_back(where + std::to_string(*g.utilization_percent) +
                           "% utilised by a process not visible here (another container's?)");
  }
  return look;
}

doc::SharingRecord sharing_record(const std::vector<SharingLook>& looks, bool nvml_answered,
                                  bool locks_held) {
  doc::SharingRecord r;
  if (nvml_answered) r.checked.push_back("nvml");
  if (locks_held) r.checked.push_back("locks");
  std::set<long> pids;
  for (const auto& l : looks) {
    r.notes.insert(r.notes.end(), l.notes.begin(), l.notes.end());
    pids.insert(l.pids.begin(), l.pids.end());
    r.shared = r.shared || l.busy();
  }
  r.other_pids.assign(pids.begin(), pids.end());
  return r;
}

std::string exclusive_refusal(const SharingLook& before) {
  if (!before.busy()) return "";
  // "before: 0000:41:00.0: pid 4242 (...)" -> "GPU 0000:41:00.0 is in use: pid 4242 (...)"
  std::string note = before.notes.front();
  const std::string prefix = "before: ";
  if (note.rfind(prefix, 0) == 0) note.erase(0, prefix.size());
  const auto colon = note.find(": ", 12);  // after the bus id's own colons
  const std::string gpu = colon == std::string::npos ? note : note.substr(0, colon);
  const std::string what = colon == std::string::npos ? "" : note.substr(colon + 2);
  std::string line = "--exclusive: GPU " + gpu + " is in use: " + what;
  if (before.notes.size() > 1)
    line += " (and " + std::to_string(before.notes.size() - 1) + " more)";
  return line;
}

}  // namespace p2p::bench
