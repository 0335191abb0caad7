#include "report/html_pairs.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>
#include <vector>

#include "report/html_report.hpp"
#include "topology/classify.hpp"

namespace p2p::report {
namespace {

struct PairState {
  int failed = 0, errors = 0, waived = 0;
  bool no_peer_access = false;
  std::string reason;  // the first detail of the worst status seen
  int worst = 0;       // 3 failed, 2 error, 1 waived / no P2P
};

void note(PairState& p, doc::FigureStatus status, const std::string& detail) {
  const int rank = status == doc::FigureStatus::kFailed   ? 3
                   : status == doc::FigureStatus::kError  ? 2
                   : status == doc::FigureStatus::kWaived ? 1
                                                          : 0;
  if (rank == 0) return;
  p.failed += rank == 3;
  p.errors += rank == 2;
  p.waived += rank == 1;
  if (rank > p.worst) {
    p.worst = rank;
    p.reason = detail.empty() ? doc::to_string(status) : detail;
  }
}

}  // namespace

PairPaths::PairPaths(const doc::BenchDocument& doc) {
  std::map<std::string, int> by_pci;
  if (doc.topology) {
    const auto& gpus = doc.topology->gpus;
    for (std::size_t i = 0; i < gpus.size(); ++i) by_pci[gpus[i].pci_bus_id] = static_cast<int>(i);
    matrix_ = topo::display_matrix(*doc.topology);
  }
  for (const auto& g : doc.gpus) {
    const std::string label = doc::gpu_label(g);
    device_[label] = g.cuda_ordinal;
    if (const auto it = by_pci.find(g.pci_bus_id); it != by_pci.end())
      topology_index_[label] = it->second;
  }
}

std::string PairPaths::between(const std::string& a, const std::string& b) const {
  if (!doc::is_gpu_endpoint(a) || !doc::is_gpu_endpoint(b) || a == b) return "";
  const auto da = device_.find(a), db = device_.find(b);
  if (da != device_.end() && db != device_.end() && da->second == db->second) return "same device";
  const auto ia = topology_index_.find(a), ib = topology_index_.find(b);
  if (ia == topology_index_.end() || ib == topology_index_.end()) return "";
  const auto i = static_cast<std::size_t>(ia->second), j = static_cast<std::size_t>(ib->second);
  if (i >= matrix_.size() || j >= matrix_[i].size()) return "";
  return matrix_[i][j];
}

std::string attention_section(const doc::BenchDocument& doc, const PairPaths& paths) {
  std::map<std::pair<std::string, std::string>, PairState> pairs;
  for (const auto& r : doc.bandwidth) {
    if (doc::is_gpu_endpoint(r.src) && doc::is_gpu_endpoint(r.dst) && r.src != r.dst)
      note(pairs[{r.src, r.dst}], r.status, r.detail);
  }
  for (const auto& r : doc.latency) {
    if (doc::is_gpu_endpoint(r.src) && doc::is_gpu_endpoint(r.dst) && r.src != r.dst)
      note(pairs[{r.src, r.dst}], r.status, r.detail);
  }
  for (std::size_t i = 0; i < doc.p2p_access.size() && i < doc.gpus.size(); ++i) {
    for (std::size_t j = 0; j < doc.p2p_access[i].size() && j < doc.gpus.size(); ++j) {
      if (i == j || doc.p2p_access[i][j]) continue;
      PairState& p = pairs[{doc::gpu_label(doc.gpus[i]), doc::gpu_label(doc.gpus[j])}];
      p.no_peer_access = true;
      if (p.worst == 0) {
        p.worst = 1;
        p.reason = "no CUDA peer access";
      }
    }
  }
  std::vector<std::tuple<std::pair<std::string, std::string>, PairState>> bad;
  for (const auto& [key, p] : pairs) {
    if (p.worst > 0) bad.emplace_back(key, p);
  }
  if (bad.empty()) return "";
  std::stable_sort(bad.begin(), bad.end(), [](const auto& x, const auto& y) {
    return std::get<1>(x).worst > std::get<1>(y).worst;
  });
  std::ostringstream os;
  os << "<h2>Pairs to look at first</h2>\n<table class=\"attention\"><tr><th class=\"l\">pair</th><th class=\"l\">path</th>"
        "<th>P2P</th><th>failed</th><th>errors</th><th>waived</th><th class=\"l\">first reason</th></tr>\n";
  for (const auto& [key, p] : bad) {
    const char* cls = p.worst == 3 ? "bad" : p.worst == 2 ? "bad" : "waived";
    os << "<tr class=\"" << cls << "\"><td class=\"l\">"
       << html_escape(key.first + "->" + key.second) << "</td><td class=\"l\">"
       << html_escape(paths.between(key.first, key.second)) << "</td><td>"
       << (p.no_peer_access ? "no" : "yes") << "</td><td>" << p.failed << "</td><td>" << p.errors
       << "</td><td>" << p.waived << "</td><td class=\"l\">" << html_escape(p.reason)
       << "</td></tr>\n";
  }
  os << "</table>\n";
  return os.str();
}

}  // namespace p2p::report
