#include "report/nccl_text.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "common/byte_size.hpp"
#include "document/data_type.hpp"
#include "document/nccl_collective.hpp"

namespace p2p::report {

namespace {

std::string fmt(const char* f, ...) {
  char buf[512];
  va_list args;
  va_start(args, f);
  std::vsnprintf(buf, sizeof(buf), f, args);
  va_end(args);
  return buf;
}

std::string type_column(const std::string& dtype) {
  try {
    return doc::nccl_tests_name(doc::parse_data_type(dtype));
  } catch (...) {
    return dtype;
  }
}

// time, algbw, busbw, #wrong of one placement, or the status word where there is no number.
std::string placement_columns(const doc::CollectiveResult* r) {
  if (r == nullptr) return fmt(" %9s %8s %8s %7s", "n/a", "", "", "");
  if (r->status == doc::CollectiveStatus::kHang || r->status == doc::CollectiveStatus::kError ||
      !r->time_us) {
    const std::string word = r->status == doc::CollectiveStatus::kHang    ? "HANG"
                             : r->status == doc::CollectiveStatus::kError ? "ERROR"
                                                                          : "-";
    return fmt(" %9s %8s %8s %7s", word.c_str(), "-", "-", "-");
  }
  const std::string wrong = r->wrong_elements ? std::to_string(*r->wrong_elements) : "-";
  return fmt(" %9.2f %8.2f %8.2f %7s", *r->time_us, r->algbw_gbps.value_or(0.0),
             r->busbw_gbps.value_or(0.0), wrong.c_str());
}

// "GPU3" where each rank has a device of its own; "r5/GPU0" where the rank is needed to tell
// them apart: across hosts (every host has its GPU0) and where ranks share a device (eight rank
// processes on one GPU would otherwise all read GPU0).
std::string device_label(const doc::NcclRun& run, int rank) {
  const auto& devices = run.environment.devices;
  for (const auto& d : devices) {
    if (d.rank != rank) continue;
    const bool shared = std::any_of(devices.begin(), devices.end(), [&](const auto& other) {
      return other.rank != rank && other.cuda_device == d.cuda_device &&
             other.hostname == d.hostname;
    });
    const std::string gpu = "GPU" + std::to_string(d.cuda_device);
    return !d.hostname.empty() || shared ? "r" + std::to_string(rank) + "/" + gpu : gpu;
  }
  return "rank" + std::to_string(rank);
}

using GroupKey = std::tuple<std::string, std::string, int, int>;  // collective, dtype, src, dst

GroupKey group_of(const doc::CollectiveResult& r) {
  return {r.collective, r.dtype, r.src_rank.value_or(-1), r.dst_rank.value_or(-1)};
}

}  // namespace

std::string format_environment(const doc::NcclEnvironment& env) {
  std::string out = "# p2pcheck nccl on " +
                    (env.hostname.empty() ? std::string("this host") : env.hostname) + "\n";
  out += "# NCCL library " +
         (env.nccl_library_version.empty() ? "unknown" : env.nccl_library_version) + " (" +
         env.nccl_library_path + "), headers " + env.nccl_header_version + "\n";
  out += "# CUDA driver " + doc::format_cuda_version(env.cuda_driver_version.value_or(0)) +
         ", runtime " + doc::format_cuda_version(env.cuda_runtime_version.value_or(0)) + "\n";
  if (env.rank_processes) out += "# one process per rank\n";
  for (const auto& d : env.devices) {
    out += fmt("#   rank %d: GPU%d %s %s", d.rank, d.cuda_device, d.pci_bus_id.c_str(),
               d.name.c_str());
    if (d.pid) out += fmt(", pid %d", *d.pid);
    if (!d.host_id.empty()) out += ", NCCL_HOSTID " + d.host_id;
    out += "\n";
  }
  if (!env.buffer_allocator.empty()) out += "# buffers from " + env.buffer_allocator + "\n";
  std::string user;
  for (const auto& [k, v] : env.nccl_env_user) user += " " + k + "=" + v;
  out += "# NCCL_* set by the user:" + (user.empty() ? std::string(" none") : user) + "\n";
  std::string ours;
  for (const auto& [k, v] : env.nccl_env_p2pcheck) ours += " " + k + "=" + v;
  out += "# NCCL_* set by p2pcheck:" + ours + "\n";
  return out;
}

std::string format_run_warnings(const doc::NcclRun& run) {
  std::string out;
  // What happened to the run, as notes: a failure it explains is the verdict's to state.
  for (const auto& w : run.warnings) out += "# note: " + w + "\n";
  return out;
}

std::string format_results_table(const doc::NcclRun& run) {
  std::vector<GroupKey> order;
  std::map<GroupKey, std::map<std::uint64_t, std::pair<const doc::CollectiveResult*,
                                                       const doc::CollectiveResult*>>>
      groups;
  for (const auto& r : run.results) {
    const GroupKey key = group_of(r);
    if (groups.find(key) == groups.end()) order.push_back(key);
    auto& row = groups[key][r.size_bytes];
    (r.in_place ? row.second : row.first) = &r;
  }
  std::string out;
  for (const auto& key : order) {
    const auto& [collective, dtype, src, dst] = key;
    out += "#\n# " + collective + "  " + dtype;
    if (src >= 0)
      out += "  rank " + std::to_string(src) + " -> rank " + std::to_string(dst) + " (" +
             device_label(run, src) + " -> " + device_label(run, dst) + ")";
    out += run.p2p_disabled ? "  [NCCL_P2P_DISABLE=1]\n" : "\n";
    out +=
        fmt("# %12s %12s %9s %6s %5s %36s %36s\n", "", "", "", "", "", "out-of-place", "in-place");
    out += fmt("# %12s %12s %9s %6s %5s %9s %8s %8s %7s %9s %8s %8s %7s\n", "size", "count", "type",
               "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
               "#wrong");
    out += fmt("# %12s %12s %9s %6s %5s %9s %8s %8s %7s %9s %8s %8s %7s\n", "(B)", "(elements)", "",
               "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
    for (const auto& [bytes, row] : groups[key]) {
      const doc::CollectiveResult* any = row.first != nullptr ? row.first : row.second;
      const std::string root = any->root ? std::to_string(*any->root) : "-1";
      const char* redop =
          collective == "all_reduce" || collective == "reduce_scatter" ? "sum" : "none";
      out += fmt("  %12llu %12llu %9s %6s %5s", static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(any->count), type_column(dtype).c_str(), redop,
                 root.c_str());
      out += placement_columns(row.first) + placement_columns(row.second) + "\n";
    }
  }
  return out;
}

namespace {

std::string transport_cell_text(const doc::TransportMatrix& m, int s, int d) {
  const doc::TransportCell& cell = m.cell(s, d);
  std::string label = s == d && cell.transports.empty() ? "X" : doc::cell_label(cell);
  if (!cell.transports.empty()) label += "(" + std::to_string(cell.channels) + "ch)";
  return label;
}

std::string transport_square(const doc::NcclRun& run) {
  const doc::TransportMatrix& m = run.transport;
  std::string out = fmt("# %8s", "");
  for (int d = 0; d < m.nranks; ++d) out += fmt(" %-18s", device_label(run, d).c_str());
  out += "\n";
  for (int s = 0; s < m.nranks; ++s) {
    out += fmt("# %8s", device_label(run, s).c_str());
    for (int d = 0; d < m.nranks; ++d) out += fmt(" %-18s", transport_cell_text(m, s, d).c_str());
    out += "\n";
  }
  return out;
}

// Beyond doc::kMaxMatrixRanks a square would be mostly blanks (and quadratic): one line per pair.
std::string transport_pair_lines(const doc::NcclRun& run) {
  const doc::TransportMatrix& m = run.transport;
  std::string out = "#   " + std::to_string(m.nranks) + " ranks (more than " +
                    std::to_string(doc::kMaxMatrixRanks) +
                    " for a matrix): one line per pair NCCL connected\n";
  for (const auto& [pair, cell] : m.pairs) {
    out += "#   " + device_label(run, pair.first) + " -> " + device_label(run, pair.second) + "  " +
           transport_cell_text(m, pair.first, pair.second) + "\n";
  }
  return out;
}

}  // namespace

std::string format_transport_matrix(const doc::NcclRun& run) {
  const doc::TransportMatrix& m = run.transport;
  std::string out = "#\n# NCCL transport per pair (row sends to column), from NCCL's INFO log";
  out += run.p2p_disabled ? " [NCCL_P2P_DISABLE=1]\n" : "\n";
  if (run.p2p_disabled) {
    out += m.nccl_saw_p2p_disable
               ? "#   NCCL confirmed: \"NCCL_P2P_DISABLE set by environment to 1\"\n"
               : "#   NCCL did not log that it saw NCCL_P2P_DISABLE=1\n";
  }
  out += fmt("#   rings %s, coll channels %s, p2p channels %s\n",
             m.rings ? std::to_string(*m.rings).c_str() : "-",
             m.coll_channels ? std::to_string(*m.coll_channels).c_str() : "-",
             m.p2p_channels ? std::to_string(*m.p2p_channels).c_str() : "-");
  out += m.nranks <= doc::kMaxMatrixRanks ? transport_square(run) : transport_pair_lines(run);
  const bool none = std::none_of(m.pairs.begin(), m.pairs.end(),
                                 [](const auto& p) { return !p.second.transports.empty(); });
  if (m.nranks > 1 && none) {
    out +=
        "#   (NCCL logged no connection: was the log redirected elsewhere, or did nothing run?)\n";
  }
  for (const auto& w : m.warnings) out += "#   NCCL WARN " + w + "\n";
  if (!m.topo_file.empty())
    out += "#   NCCL topology file " + m.topo_file + ": " + m.topo_file_state + "\n";
  return out;
}

namespace {

// "12.3", "12.3!" (wrong data), HANG, ERROR or "-" for one sendrecv_pairs figure.
std::string pair_cell_text(const doc::CollectiveResult& r) {
  if (r.status == doc::CollectiveStatus::kHang) return "HANG";
  if (r.status == doc::CollectiveStatus::kError) return "ERROR";
  if (!r.busbw_gbps) return "-";
  return fmt("%.1f", *r.busbw_gbps) + (r.status == doc::CollectiveStatus::kWrong ? "!" : "");
}

}  // namespace

std::string format_pair_matrix(const doc::NcclRun& run) {
  std::optional<std::string> dtype;
  std::uint64_t largest = 0;
  for (const auto& r : run.results) {
    if (r.collective != "sendrecv_pairs") continue;
    if (!dtype) dtype = r.dtype;
    if (r.dtype == *dtype) largest = std::max(largest, r.size_bytes);
  }
  if (!dtype) return "";
  // One pass over the results, then one lookup per cell (not a scan of every result per cell).
  std::map<std::pair<int, int>, std::string> cells;
  for (const auto& r : run.results) {
    if (r.collective == "sendrecv_pairs" && r.dtype == *dtype && r.size_bytes == largest)
      cells[{r.src_rank.value_or(-1), r.dst_rank.value_or(-1)}] = pair_cell_text(r);
  }
  const int n = run.transport.nranks > 0 ? run.transport.nranks
                                         : static_cast<int>(run.environment.devices.size());
  std::string out = "#\n# NCCL send/recv busbw (GB/s) per ordered pair at " +
                    format_bytes(largest, ByteStyle::kSpaced) + ", " + *dtype +
                    ", row sends to column" + (run.p2p_disabled ? " [NCCL_P2P_DISABLE=1]\n" : "\n");
  if (n > doc::kMaxMatrixRanks) {
    for (const auto& [pair, text] : cells)
      out += "#   " + device_label(run, pair.first) + " -> " + device_label(run, pair.second) +
             "  " + text + "\n";
  } else {
    out += fmt("# %8s", "");
    for (int d = 0; d < n; ++d) out += fmt(" %10s", device_label(run, d).c_str());
    out += "\n";
    for (int s = 0; s < n; ++s) {
      out += fmt("# %8s", device_label(run, s).c_str());
      for (int d = 0; d < n; ++d) {
        const auto it = cells.find({s, d});
        out += fmt(" %10s", it == cells.end() ? "-" : it->second.c_str());
      }
      out += "\n";
    }
  }
  out += "#   (! = wrong data received)\n";
  return out;
}

std::string format_p2p_comparison(const doc::NcclRun& on, const doc::NcclRun& off) {
  std::map<GroupKey, std::map<std::uint64_t, std::pair<const doc::CollectiveResult*,
                                                       const doc::CollectiveResult*>>>
      rows;
  std::vector<GroupKey> order;
  for (const auto& r : on.results) {
    if (r.in_place) continue;
    const GroupKey key = group_of(r);
    if (rows.find(key) == rows.end()) order.push_back(key);
    rows[key][r.size_bytes].first = &r;
  }
  for (const auto& r : off.results) {
    if (r.in_place) continue;
    const GroupKey key = group_of(r);
    if (rows.find(key) == rows.end()) order.push_back(key);
    rows[key][r.size_bytes].second = &r;
  }
  // busbw, except where one rank moves nothing across a bus (factor 0): algbw then.
  using Metric = std::optional<double> doc::CollectiveResult::*;
  const auto cell = [](const doc::CollectiveResult* r, Metric metric) -> std::string {
    if (r == nullptr) return "-";
    if (r->status == doc::CollectiveStatus::kHang) return "HANG";
    if (r->status == doc::CollectiveStatus::kError) return "ERROR";
    if (!(r->*metric)) return "-";
    return fmt("%.2f", *(r->*metric)) + (r->status == doc::CollectiveStatus::kWrong ? "!" : "");
  };
  std::string out =
      "#\n# P2P on vs off (NCCL_P2P_DISABLE=1): out-of-place bandwidth (GB/s); ! = wrong data\n";
  for (const auto& key : order) {
    const auto& [collective, dtype, src, dst] = key;
    const auto& first = rows[key].begin()->second;
    const doc::CollectiveResult* any = first.first != nullptr ? first.first : first.second;
    bool bus = true;
    try {
      bus = doc::bus_factor(doc::parse_collective(collective), any->nranks) > 0.0;
    } catch (...) {
    }
    const Metric metric =
        bus ? &doc::CollectiveResult::busbw_gbps : &doc::CollectiveResult::algbw_gbps;
    out += "# " + collective + "  " + dtype;
    if (src >= 0) out += "  rank " + std::to_string(src) + " -> rank " + std::to_string(dst);
    out += bus ? "  busbw\n" : "  algbw (one rank: busbw is 0)\n";
    out += fmt("# %12s %12s %12s %9s\n", "size (B)", "P2P on", "P2P off", "on/off");
    for (const auto& [bytes, pair] : rows[key]) {
      std::string ratio = "-";
      if (pair.first && pair.second && (pair.first->*metric) && (pair.second->*metric) &&
          *(pair.second->*metric) > 0.0) {
        ratio = fmt("%.2f", *(pair.first->*metric) / *(pair.second->*metric));
      }
      out +=
          fmt("  %12llu %12s %12s %9s\n", static_cast<unsigned long long>(bytes),
              cell(pair.first, metric).c_str(), cell(pair.second, metric).c_str(), ratio.c_str());
    }
  }
  return out;
}

std::string format_verdicts(const std::vector<doc::BusbwVerdict>& verdicts) {
  if (verdicts.empty()) return "";
  std::string out = "#\n# --min-busbw, judged on sizes at or above each series' saturation size\n";
  for (const auto& v : verdicts) {
    std::string series =
        v.collective + " " + v.dtype + (v.in_place ? " in-place" : " out-of-place");
    if (v.src_rank)
      series += " " + std::to_string(*v.src_rank) + "->" + std::to_string(v.dst_rank.value_or(-1));
    std::string line = fmt("# %-6s %-42s",
                           v.status == doc::ThresholdStatus::kPass   ? "PASS"
                           : v.status == doc::ThresholdStatus::kFail ? "FAIL"
                                                                     : "-",
                           series.c_str());
    if (v.median_busbw_gbps) {
      line += fmt(" median %.2f GB/s (lowest %.2f) over %d size(s) from %s, minimum %.2f",
                  *v.median_busbw_gbps, v.lowest_busbw_gbps.value_or(0.0), v.judged_sizes,
                  format_bytes(v.saturation_bytes.value_or(0), ByteStyle::kSpaced).c_str(),
                  v.min_busbw_gbps);
    }
    if (!v.detail.empty()) line += " (" + v.detail + ")";
    out += line + "\n";
  }
  return out;
}

}  // namespace p2p::report
