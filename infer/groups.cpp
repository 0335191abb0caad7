#include "infer/groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/text.hpp"
#include "topology/classify.hpp"

namespace p2p::infer {

namespace {

// The enumeration's bound, in pair looks rather than subsets: 200,000 subsets cover 16 GPUs at
// every size, but a subset of 128 GPUs has 8,128 pairs, and 200,000 of them took over a minute.
constexpr std::size_t kMaxSubsets = 200000;
constexpr std::size_t kMaxPairLooks = 20000000;

// Lower is better: NVLink first (more links better), then the PCIe classes in legend order.
int pair_score(const topo::TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (a < t.nvlink_count.size() && b < t.nvlink_count[a].size() && t.nvlink_count[a][b] > 0) {
    return -t.nvlink_count[a][b];
  }
  return 1000 + topo::path_rank(t.pcie_matrix.at(a).at(b));
}

// Every pair of the pool classified once: its matrix label as a small id, so a subset is scored
// by counting ids. A label has one score (NV18 is -18, PIX 1000 + its rank).
struct PairTable {
  std::vector<std::string> labels;
  std::vector<int> label_score;
  std::vector<int> ids;  // [i * n + j] for pool positions i, j
  std::size_t n = 0;

  PairTable(const topo::TopologySnapshot& t, const std::vector<int>& pool) : n(pool.size()) {
    std::map<std::string, int> known;
    ids.assign(n * n, -1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const auto a = static_cast<std::size_t>(pool[i]), b = static_cast<std::size_t>(pool[j]);
        const auto [it, added] =
            known.emplace(topo::matrix_label(t, a, b), static_cast<int>(labels.size()));
        if (added) {
          labels.push_back(it->first);
          label_score.push_back(pair_score(t, a, b));
        }
        ids[i * n + j] = ids[j * n + i] = it->second;
      }
  }
  int id(int i, int j) const {
    return ids[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(j)];
  }
};

struct Scored {
  GpuGroup group;
  int worst = 0;
  int sum = 0;
};

// `idx`: positions in the pool, ascending; `counts` is scratch of one entry per label.
Scored score(const topo::TopologySnapshot& t, const std::vector<int>& pool, const PairTable& pairs,
             const std::vector<int>& idx, std::vector<int>& counts) {
  Scored s;
  for (int i : idx) s.group.gpus.push_back(pool[static_cast<std::size_t>(i)]);
  std::fill(counts.begin(), counts.end(), 0);
  s.worst = -1000000;
  int worst_label = -1;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    for (std::size_t j = i + 1; j < idx.size(); ++j) {
      const int label = pairs.id(idx[i], idx[j]);
      const int sc = pairs.label_score[static_cast<std::size_t>(label)];
      counts[static_cast<std::size_t>(label)] += 1;
      s.sum += sc;
      if (sc > s.worst) {
        s.worst = sc;
        worst_label = label;
      }
    }
  }
  if (worst_label >= 0) s.group.worst_path = pairs.labels[static_cast<std::size_t>(worst_label)];
  std::vector<std::tuple<int, std::string, int>> ordered;  // score, label, count: best first
  for (std::size_t l = 0; l < counts.size(); ++l)
    if (counts[l] > 0) ordered.emplace_back(pairs.label_score[l], pairs.labels[l], counts[l]);
  std::sort(ordered.begin(), ordered.end());
  for (const auto& [sc, label, count] : ordered) {
    if (!s.group.signature.empty()) s.group.signature += " + ";
    s.group.signature += label + " x" + std::to_string(count);
  }
  std::set<int> numa;
  s.group.numa_known = true;
  for (int g : s.group.gpus) {
    const int node = t.gpus.at(static_cast<std::size_t>(g)).numa_node;
    if (node < 0) {
      s.group.numa_known = false;
    } else {
      numa.insert(node);
    }
  }
  s.group.numa_nodes.assign(numa.begin(), numa.end());
  return s;
}

std::string describe(const GpuGroup& g) {
  std::string numa;
  if (!g.numa_known) {
    numa = "NUMA node unknown";
  } else {
    const std::string nodes = format_id_list(g.numa_nodes);
    numa = g.numa_nodes.size() == 1
               ? "one NUMA node (" + nodes + ")"
               : std::to_string(g.numa_nodes.size()) + " NUMA nodes (" + nodes + ")";
  }
  return numa + ", worst path " + g.worst_path;
}

// The next `k`-subset of 0..n-1 in lexicographic order; false after the last.
bool next_subset(std::vector<int>& idx, int n) {
  const int k = static_cast<int>(idx.size());
  int i = k - 1;
  while (i >= 0 && idx[static_cast<std::size_t>(i)] == n - k + i) --i;
  if (i < 0) return false;
  ++idx[static_cast<std::size_t>(i)];
  for (int j = i + 1; j < k; ++j)
    idx[static_cast<std::size_t>(j)] = idx[static_cast<std::size_t>(j - 1)] + 1;
  return true;
}

// C(n, k), or max + 1 once it passes max.
std::size_t choose_up_to(std::size_t n, std::size_t k, std::size_t max) {
  if (k > n) return 0;
  k = std::min(k, n - k);
  std::size_t c = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    // c * (n - k + i) / i stays exact: c is C(n - k + i - 1, i - 1).
    if (c > (max + 1) * i / (n - k + i) + 1) return max + 1;
    c = c * (n - k + i) / i;
    if (c > max) return max + 1;
  }
  return c;
}

}  // namespace

std::size_t subset_bound(int tp) {
  const std::size_t looks = tp > 1 ? static_cast<std::size_t>(tp) * (tp - 1) / 2 : 1;
  return std::max<std::size_t>(1, std::min(kMaxSubsets, kMaxPairLooks / looks));
}

std::vector<GpuGroup> candidate_groups(const topo::TopologySnapshot& t, int tp,
                                       const std::vector<int>& eligible, std::size_t max_groups) {
  std::vector<int> pool = eligible;
  std::sort(pool.begin(), pool.end());
  pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
  const int n = static_cast<int>(pool.size());
  if (tp < 1 || tp > n || max_groups == 0) return {};

  std::map<std::string, std::size_t> by_signature;  // "signature|numa" -> index into found
  std::vector<Scored> found;
  std::vector<int> idx(static_cast<std::size_t>(tp));
  for (int i = 0; i < tp; ++i) idx[static_cast<std::size_t>(i)] = i;
  const PairTable pairs(t, pool);
  std::vector<int> counts(pairs.labels.size());
  const std::size_t max_subsets = subset_bound(tp);
  std::size_t visited = 0;
  do {
    Scored s = score(t, pool, pairs, idx, counts);
    const std::string key = s.group.signature + "|" + std::to_string(s.group.numa_nodes.size()) +
                            (s.group.numa_known ? "" : "?");
    const auto it = by_signature.find(key);
    if (it == by_signature.end()) {
      by_signature.emplace(key, found.size());
      found.push_back(std::move(s));
    } else {
      found[it->second].group.alike += 1;
    }
  } while (++visited < max_subsets && next_subset(idx, n));

  std::sort(found.begin(), found.end(), [](const Scored& a, const Scored& b) {
    return std::make_tuple(a.worst, a.sum, a.group.numa_nodes.size(), a.group.gpus) <
           std::make_tuple(b.worst, b.sum, b.group.numa_nodes.size(), b.group.gpus);
  });
  if (found.size() > max_groups && max_groups == 1) found.resize(1);
  if (found.size() > max_groups) {
    Scored worst = std::move(found.back());
    found.resize(max_groups - 1);
    found.push_back(std::move(worst));
  }
  std::vector<GpuGroup> out;
  for (Scored& s : found) {
    s.group.description = describe(s.group);
    out.push_back(std::move(s.group));
  }
  return out;
}

std::vector<TpGroups> plan_groups(const std::vector<int>& tp_sizes, const topo::TopologySnapshot& t,
                                  const std::vector<int>& eligible, std::size_t max_groups) {
  std::vector<TpGroups> out;
  for (int tp : tp_sizes) {
    TpGroups g;
    g.tp = tp;
    g.groups = candidate_groups(t, tp, eligible, max_groups);
    const std::size_t bound = subset_bound(tp);
    if (!g.groups.empty() &&
        choose_up_to(eligible.size(), static_cast<std::size_t>(tp), bound) > bound) {
      g.note = "only the first " + std::to_string(bound) + " groups of " + std::to_string(tp) +
               " in GPU order were looked at: a bound on the work";
    }
    if (g.groups.empty()) {
      g.note =
          "needs " + std::to_string(tp) + " GPUs, " + std::to_string(eligible.size()) + " usable";
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<TpGroups> logical_groups(const std::vector<int>& tp_sizes, int logical_gpus,
                                     const std::vector<int>& devices) {
  const std::string on = format_id_list(devices);
  std::vector<TpGroups> out;
  for (int tp : tp_sizes) {
    TpGroups g;
    g.tp = tp;
    if (tp > logical_gpus) {
      g.note = "needs " + std::to_string(tp) + " logical GPUs, --logical-gpus is " +
               std::to_string(logical_gpus);
    } else {
      GpuGroup group;
      for (int i = 0; i < tp; ++i) group.gpus.push_back(i);
      group.signature = "logical";
      group.worst_path = "logical";
      group.description =
          std::to_string(tp) + " rank processes on CUDA device" +
          (devices.size() > 1 ? "s " : " ") + on +
          ", each its own NCCL host (network transport): measures the tool, not links";
      g.groups.push_back(std::move(group));
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<int> all_gpus(const topo::TopologySnapshot& t) {
  std::vector<int> out;
  for (std::size_t i = 0; i < t.gpus.size(); ++i) out.push_back(static_cast<int>(i));
  return out;
}

std::string format_id_list(const std::vector<int>& ids) {
  std::vector<std::string> text;
  for (int id : ids) text.push_back(std::to_string(id));
  return join(text, ",");
}

std::string format_gpu_list(const std::vector<int>& ids) {
  std::vector<int> v = ids;
  std::sort(v.begin(), v.end());
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ",";
    if (j >= i + 2) {
      out += std::to_string(v[i]) + "-" + std::to_string(v[j]);
    } else {
      out += std::to_string(v[i]);
      if (j == i + 1) out += "," + std::to_string(v[j]);
    }
    i = j + 1;
  }
  return out;
}

}  // namespace p2p::infer
