#include "infer/groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/text.hpp"
#include "topology/classify.hpp"

namespace p2p::infer {

namespace {

constexpr std::size_t kMaxSubsets = 200000;

// Lower is better: NVLink first (more links better), then the PCIe classes in legend order.
int pair_score(const topo::TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (a < t.nvlink_count.size() && b < t.nvlink_count[a].size() && t.nvlink_count[a][b] > 0) {
    return -t.nvlink_count[a][b];
  }
  return 1000 + topo::path_rank(t.pcie_matrix.at(a).at(b));
}

struct Scored {
  GpuGroup group;
  int worst = 0;
  int sum = 0;
};

Scored score(const topo::TopologySnapshot& t, const std::vector<int>& gpus) {
  Scored s;
  s.group.gpus = gpus;
  // label -> (count, score), so the signature lists classes best first.
  std::map<std::string, std::pair<int, int>> labels;
  s.worst = -1000000;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      const auto a = static_cast<std::size_t>(gpus[i]);
      const auto b = static_cast<std::size_t>(gpus[j]);
      const int sc = pair_score(t, a, b);
      auto& entry = labels[topo::matrix_label(t, a, b)];
      entry.first += 1;
      entry.second = sc;
      s.sum += sc;
      if (sc > s.worst) {
        s.worst = sc;
        s.group.worst_path = topo::matrix_label(t, a, b);
      }
    }
  }
  std::vector<std::tuple<int, std::string, int>> ordered;  // score, label, count
  for (const auto& [label, e] : labels) ordered.emplace_back(e.second, label, e.first);
  std::sort(ordered.begin(), ordered.end());
  for (const auto& [sc, label, count] : ordered) {
    if (!s.group.signature.empty()) s.group.signature += " + ";
    s.group.signature += label + " x" + std::to_string(count);
  }
  std::set<int> numa;
  s.group.numa_known = true;
  for (int g : gpus) {
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

}  // namespace

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
  std::size_t visited = 0;
  do {
    std::vector<int> gpus;
    for (int i : idx) gpus.push_back(pool[static_cast<std::size_t>(i)]);
    Scored s = score(t, gpus);
    const std::string key = s.group.signature + "|" + std::to_string(s.group.numa_nodes.size()) +
                            (s.group.numa_known ? "" : "?");
    const auto it = by_signature.find(key);
    if (it == by_signature.end()) {
      by_signature.emplace(key, found.size());
      found.push_back(std::move(s));
    } else {
      found[it->second].group.alike += 1;
    }
  } while (++visited < kMaxSubsets && next_subset(idx, n));

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
