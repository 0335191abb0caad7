#include "report/nccl_cluster_text.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/byte_size.hpp"
#include "common/median.hpp"

namespace p2p::report {

namespace {

std::string cell(const char* f, const std::string& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, s.c_str());
  return buf;
}

std::string gbps_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string host_label(int h) { return "host" + std::to_string(h); }

std::string rank_list(const doc::NcclCluster& c, int host) {
  std::string out;
  for (const auto& r : c.ranks) {
    if (r.host == host) out += (out.empty() ? "" : ",") + std::to_string(r.rank);
  }
  return out;
}

std::string hostname_of(const doc::NcclCluster& c, int host) {
  for (const auto& r : c.ranks) {
    if (r.host == host) return r.hostname;
  }
  return "";
}

// "#   host0 = a (on b): ranks 0,1": which hosts the processes ran on and which ranks each held.
std::string hosts_block(const doc::NcclCluster& c) {
  const int h = static_cast<int>(c.hosts.size());
  std::string out;
  for (int i = 0; i < h; ++i) {
    const std::string name = hostname_of(c, i);
    out += "#   " + host_label(i) + " = " + c.hosts[static_cast<std::size_t>(i)] +
           (name != c.hosts[static_cast<std::size_t>(i)] ? " (on " + name + ")" : "") + ": ranks " +
           rank_list(c, i) + "\n";
  }
  return out;
}

// The host-by-host matrix of NCCL transports, then each host pair NCCL joined without NET.
std::string host_transport_block(const doc::NcclCluster& c) {
  const int h = static_cast<int>(c.hosts.size());
  std::string out = "#\n# NCCL transport between hosts (row sends to column)\n# " + cell("%8s", "");
  for (int j = 0; j < h; ++j) out += cell(" %-22s", host_label(j));
  out += "\n";
  for (int i = 0; i < h; ++i) {
    out += "# " + cell("%8s", host_label(i));
    for (int j = 0; j < h; ++j) {
      const doc::TransportCell& t =
          c.host_transport[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      out += cell(" %-22s",
                  t.transports.empty() ? std::string(i == j ? "X" : "-") : doc::cell_label(t));
    }
    out += "\n";
  }
  for (const auto& [a, b] : doc::host_pairs_without_network(c)) {
    out +=
        "#   " + host_label(a) + " -> " + host_label(b) +
        ": no NET transport; NCCL found a path inside one machine (same host under two names?)\n";
  }
  return out;
}

// A host pair's cell: its GB/s, else its status ("!" marks wrong data).
std::string pair_cell(const doc::HostPairResult& p) {
  std::string text;
  if (p.algbw_gbps) {
    text = gbps_text(*p.algbw_gbps);
  } else {
    text = p.status == doc::CollectiveStatus::kHang    ? "HANG"
           : p.status == doc::CollectiveStatus::kError ? "ERROR"
                                                       : doc::to_string(p.status);
  }
  if (p.status == doc::CollectiveStatus::kWrong) text += "!";
  return text;
}

// The host pairs' send GB/s at the largest size, with each row's and column's median.
std::string host_pairs_block(const doc::NcclCluster& c) {
  const int h = static_cast<int>(c.hosts.size());
  std::uint64_t largest = 0;
  for (const auto& p : c.host_pairs) largest = std::max(largest, p.size_bytes);
  std::map<std::pair<int, int>, const doc::HostPairResult*> at;
  for (const auto& p : c.host_pairs) {
    if (p.size_bytes == largest) at[{p.src_host, p.dst_host}] = &p;
  }
  std::string out =
      "#\n# Host pairs: send GB/s at " + format_bytes(largest, ByteStyle::kSpaced) +
      " between each host's first rank (pairs of a round ran at once; row sends to column)\n# " +
      cell("%8s", "");
  for (int j = 0; j < h; ++j) out += cell(" %9s", host_label(j));
  out += cell(" %9s", "median") + "\n";
  std::vector<std::vector<double>> by_column(static_cast<std::size_t>(h));
  for (int i = 0; i < h; ++i) {
    out += "# " + cell("%8s", host_label(i));
    std::vector<double> row;
    for (int j = 0; j < h; ++j) {
      const auto it = at.find({i, j});
      std::string text = i == j ? "X" : "-";
      if (it != at.end()) {
        text = pair_cell(*it->second);
        if (const auto& gbps = it->second->algbw_gbps) {
          row.push_back(*gbps);
          by_column[static_cast<std::size_t>(j)].push_back(*gbps);
        }
      }
      out += cell(" %9s", text);
    }
    out += cell(" %9s", row.empty() ? std::string("-") : gbps_text(median(row))) + "\n";
  }
  out += "# " + cell("%8s", "median");
  for (int j = 0; j < h; ++j) {
    const auto& col = by_column[static_cast<std::size_t>(j)];
    out += cell(" %9s", col.empty() ? std::string("-") : gbps_text(median(col)));
  }
  out += "\n";
  return out;
}

}  // namespace

std::string format_cluster(const doc::NcclRun& run) {
  if (!run.cluster) return "";
  const doc::NcclCluster& c = *run.cluster;
  std::string out = "#\n# Across hosts (MPI, " + std::to_string(c.processes) + " process" +
                    (c.processes == 1 ? "" : "es") + ", launch: " + c.launch + ")\n";
  out += hosts_block(c);
  out += host_transport_block(c);
  if (c.host_pairs.empty()) return out;
  return out + host_pairs_block(c);
}

}  // namespace p2p::report
