#include "session/gpu_sharing_check.hpp"

#include <unistd.h>

#include <cstdlib>
#include <set>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "doctor/collect/probes.hpp"

namespace p2p::session {

namespace {

constexpr int kNvmlTimeoutMs = 20000;

std::string process_name(long pid) {
  std::string comm = try_read_text_file("/proc/" + std::to_string(pid) + "/comm", 256).value_or("");
  while (!comm.empty() && (comm.back() == '\n' || comm.back() == '\r')) comm.pop_back();
  return comm;
}

long parent_of(long pid) {
  // /proc/PID/stat: "PID (comm) S PPID ..."; comm may hold spaces and parentheses, so read after
  // the last ')'.
  const std::string stat =
      try_read_text_file("/proc/" + std::to_string(pid) + "/stat", 4096).value_or("");
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return 0;
  return std::strtol(stat.c_str() + close + 4, nullptr, 10);
}

// This process and, of the pids seen, those it started (rank processes, the P2P-off child).
std::set<long> own_pids(const std::vector<bench::GpuActivity>& seen) {
  const long self = ::getpid();
  std::set<long> own{self};
  for (const auto& g : seen) {
    for (const auto& p : g.processes) {
      for (long at = p.pid, hops = 0; at > 1 && hops < 64; at = parent_of(at), ++hops) {
        if (at == self) {
          own.insert(p.pid);
          break;
        }
      }
    }
  }
  return own;
}

}  // namespace

std::vector<std::string> measured_bus_ids(const std::vector<std::string>& all_bus_ids,
                                          const std::vector<int>& ordinals) {
  if (ordinals.empty()) return all_bus_ids;
  std::vector<std::string> out;
  for (int o : ordinals) {
    if (o >= 0 && o < static_cast<int>(all_bus_ids.size()))
      out.push_back(all_bus_ids[static_cast<std::size_t>(o)]);
  }
  return out;
}

SharingCheck::SharingCheck(const std::vector<std::string>& bus_ids, bool exclusive)
    : bus_ids_(bus_ids), locks_(std::make_unique<GpuLocks>(gpu_lock_dir(), bus_ids, ::getpid())) {
  const auto seen = look();
  looks_.push_back(bench::look_for_sharing(seen, own_pids(seen), "before"));
  if (exclusive && looks_.back().busy()) throw BusyError(bench::exclusive_refusal(looks_.back()));
}

std::vector<bench::GpuActivity> SharingCheck::look() {
  auto nvml = doctor::probe_gpu_activity(bus_ids_, kNvmlTimeoutMs);
  nvml_answered_ = nvml_answered_ || nvml.has_value();
  std::vector<bench::GpuActivity> seen;
  for (std::size_t i = 0; i < bus_ids_.size(); ++i) {
    bench::GpuActivity g = nvml && i < nvml->size() ? (*nvml)[i] : bench::GpuActivity{};
    g.pci_bus_id = bus_ids_[i];
    for (auto& p : g.processes) p.name = process_name(p.pid);
    g.p2pcheck_runs = locks_->others(bus_ids_[i]);
    seen.push_back(g);
  }
  return seen;
}

doc::SharingRecord SharingCheck::finish() {
  const auto seen = look();
  looks_.push_back(bench::look_for_sharing(seen, own_pids(seen), "after"));
  return bench::sharing_record(looks_, nvml_answered_, locks_->held() > 0);
}

}  // namespace p2p::session
