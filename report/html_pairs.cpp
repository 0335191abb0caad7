#include "report/html_pairs.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "document/subject_gpus.hpp"
#include "report/html_report.hpp"
#include "topology/classify.hpp"

namespace p2p::report {
namespace {

// How bad a pair is, worst first: 4 a check failed, 3 one could not be made, 2 one warned,
// 1 its figures were waived or it has no peer access.
struct PairState {
  int failed = 0, errors = 0, warned = 0, waived = 0;
  bool no_peer_access = false;
  std::string reason;  // the first reason of the worst kind seen
  int worst = 0;
};

void note(PairState& p, int rank, const std::string& reason) {
  p.failed += rank == 4;
  p.errors += rank == 3;
  p.warned += rank == 2;
  p.waived += rank == 1;
  if (rank > p.worst) {
    p.worst = rank;
    p.reason = reason;
  }
}

int rank_of(doc::Outcome o) {
  switch (o) {
    case doc::Outcome::kFail: return 4;
    case doc::Outcome::kError: return 3;
    case doc::Outcome::kWarn: return 2;
    default: return 0;
  }
}

using Pairs = std::map<std::pair<std::string, std::string>, PairState>;

// Every reason of the verdict that names two GPUs, then the pairs without P2P: waived figures
// and CUDA's peer access. Two labels that are one GPU (ranks or logical GPUs of one device) are
// no pair.
Pairs pairs_to_look_at(const doc::BenchDocument& d, const doc::RunVerdict& verdict) {
  Pairs pairs;
  for (const auto& r : verdict.reasons()) {
    const auto pair = doc::gpu_pair_of(r.subject);
    if (pair && rank_of(r.outcome) > 0)
      note(pairs[*pair], rank_of(r.outcome), r.rule + ": " + r.message);
  }
  for (const auto& r : d.bandwidth) {
    if (r.status == doc::FigureStatus::kWaived && doc::is_gpu_endpoint(r.src) &&
        doc::is_gpu_endpoint(r.dst) && r.src != r.dst)
      note(pairs[{r.src, r.dst}], 1, r.detail.empty() ? "waived" : r.detail);
  }
  for (std::size_t i = 0; i < d.p2p_access.size() && i < d.gpus.size(); ++i) {
    for (std::size_t j = 0; j < d.p2p_access[i].size() && j < d.gpus.size(); ++j) {
      const std::string a = doc::gpu_label(d.gpus[i]), b = doc::gpu_label(d.gpus[j]);
      if (i == j || a == b || d.p2p_access[i][j]) continue;
      PairState& p = pairs[{a, b}];
      p.no_peer_access = true;
      if (p.worst == 0) {
        p.worst = 1;
        p.reason = "no CUDA peer access";
      }
    }
  }
  return pairs;
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

std::string attention_section(const doc::BenchDocument& doc, const PairPaths& paths,
                              const doc::RunVerdict& verdict) {
  std::vector<std::tuple<std::pair<std::string, std::string>, PairState>> bad;
  for (const auto& [key, p] : pairs_to_look_at(doc, verdict)) {
    if (p.worst > 0) bad.emplace_back(key, p);
  }
  if (bad.empty()) return "";
  std::stable_sort(bad.begin(), bad.end(), [](const auto& x, const auto& y) {
    const PairState &a = std::get<1>(x), &b = std::get<1>(y);
    return a.worst != b.worst ? a.worst > b.worst
                              : a.failed + a.errors + a.warned > b.failed + b.errors + b.warned;
  });
  std::ostringstream os;
  os << "<h2>Pairs to look at first</h2>\n<table class=\"attention\"><tr><th class=\"l\">pair</th>"
        "<th class=\"l\">path</th><th>P2P</th><th>failed</th><th>errors</th><th>warned</th>"
        "<th>waived</th><th class=\"l\">first reason</th></tr>\n";
  for (const auto& [key, p] : bad) {
    const char* cls = p.worst >= 3 ? "bad" : p.worst == 2 ? "warn" : "waived";
    os << "<tr class=\"" << cls << "\"><td class=\"l\">"
       << html_escape(key.first + "->" + key.second) << "</td><td class=\"l\">"
       << html_escape(paths.between(key.first, key.second)) << "</td><td>"
       << (p.no_peer_access ? "no" : "yes") << "</td><td>" << p.failed << "</td><td>" << p.errors
       << "</td><td>" << p.warned << "</td><td>" << p.waived << "</td><td class=\"l\">"
       << html_escape(p.reason) << "</td></tr>\n";
  }
  os << "</table>\n";
  return os.str();
}

}  // namespace p2p::report
