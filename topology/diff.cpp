#include "topology/diff.hpp"

#include <algorithm>
#include <iomanip>
#include <set>
#include <sstream>

#include "topology/classify.hpp"

namespace p2p::topo {

GpuPairing pair_gpus(const TopologySnapshot& first, const TopologySnapshot& second) {
  GpuPairing p;
  const std::size_t n = first.gpus.size();
  if (n != second.gpus.size()) {
    p.by = "none";
    return p;
  }
  std::map<std::string, std::size_t> second_index;
  for (std::size_t i = 0; i < n; ++i) second_index[second.gpus[i].pci_bus_id] = i;
  // An nvidia-smi capture has no bus ids: "" on both sides is no match, whatever the count.
  bool same_ids = second_index.size() == n && second_index.count("") == 0;
  for (const Gpu& g : first.gpus) same_ids = same_ids && second_index.count(g.pci_bus_id) == 1;
  p.by = same_ids ? "pci_bus_id" : "index";
  for (std::size_t i = 0; i < n; ++i)
    p.other.push_back(same_ids ? second_index.at(first.gpus[i].pci_bus_id) : i);
  return p;
}

ClassCounts count_pair_classes(const TopologySnapshot& t) {
  ClassCounts counts;
  for (std::size_t i = 0; i < t.gpus.size(); ++i)
    for (std::size_t j = i + 1; j < t.gpus.size(); ++j) ++counts[matrix_label(t, i, j)];
  return counts;
}

std::string pair_name(std::size_t a, std::size_t b) {
  return "GPU" + std::to_string(a) + "-GPU" + std::to_string(b);
}

TopologyDiff diff_topologies(const TopologySnapshot& before, const TopologySnapshot& after) {
  TopologyDiff d;
  d.gpus_before = before.gpus.size();
  d.gpus_after = after.gpus.size();
  d.counts_before = count_pair_classes(before);
  d.counts_after = count_pair_classes(after);
  const GpuPairing pairing = pair_gpus(before, after);
  d.pairing = pairing.by;
  d.bus_ids_unknown = std::any_of(before.gpus.begin(), before.gpus.end(),
                                  [](const Gpu& g) { return g.pci_bus_id.empty(); }) ||
                      std::any_of(after.gpus.begin(), after.gpus.end(),
                                  [](const Gpu& g) { return g.pci_bus_id.empty(); });
  if (pairing.by == "none") return d;
  for (std::size_t i = 0; i < d.gpus_before; ++i)
    d.matched_bus_ids.emplace_back(before.gpus[i].pci_bus_id,
                                   after.gpus[pairing.other[i]].pci_bus_id);
  for (std::size_t i = 0; i < d.gpus_before; ++i) {
    for (std::size_t j = i + 1; j < d.gpus_before; ++j) {
      PairChange c;
      c.gpu_a = i;
      c.gpu_b = j;
      c.other_a = pairing.other[i];
      c.other_b = pairing.other[j];
      c.before = matrix_label(before, i, j);
      c.after = matrix_label(after, c.other_a, c.other_b);
      c.pcie_before = to_string(before.pcie_matrix.at(i).at(j));
      c.pcie_after = to_string(after.pcie_matrix.at(c.other_a).at(c.other_b));
      // Where a capture hides the PCIe class under NV#, only the shown labels can be compared.
      const bool pcie_comparable =
          pcie_class_known(before, i, j) && pcie_class_known(after, c.other_a, c.other_b);
      if (!pcie_comparable) c.pcie_before = c.pcie_after = "";
      if (c.before != c.after || (pcie_comparable && c.pcie_before != c.pcie_after))
        d.changed.push_back(std::move(c));
    }
  }
  return d;
}

std::vector<std::string> ordered_labels(const ClassCounts& a, const ClassCounts& b) {
  std::set<std::string> all;
  for (const auto& kv : a) all.insert(kv.first);
  for (const auto& kv : b) all.insert(kv.first);
  std::vector<std::string> labels(all.begin(), all.end());
  const auto key = [](const std::string& label) {
    const auto c = path_class_from_string(label);
    const int links = c == PathClass::kNvLink ? std::stoi(label.substr(2)) : 0;
    return std::make_pair(c ? path_rank(*c) : 99, -links);  // more NVLinks first
  };
  std::stable_sort(labels.begin(), labels.end(),
                   [&](const std::string& x, const std::string& y) { return key(x) < key(y); });
  return labels;
}

void to_json(nlohmann::json& j, const TopologyDiff& d) {
  nlohmann::json changed = nlohmann::json::array();
  for (const PairChange& c : d.changed) {
    changed.push_back({{"gpus", {c.gpu_a, c.gpu_b}},
                       {"other_gpus", {c.other_a, c.other_b}},
                       {"before", c.before},
                       {"after", c.after},
                       {"pcie_before", c.pcie_before},
                       {"pcie_after", c.pcie_after}});
  }
  j = {{"same", d.same()},
       {"gpus_before", d.gpus_before},
       {"gpus_after", d.gpus_after},
       {"pairing", d.pairing},
       {"bus_ids_unknown", d.bus_ids_unknown},
       {"matched_bus_ids", d.matched_bus_ids},
       {"changed", std::move(changed)},
       {"counts_before", d.counts_before},
       {"counts_after", d.counts_after}};
}

namespace {

std::string label_of(const std::string& shown, const std::string& pcie) {
  return shown == pcie || pcie.empty() ? shown : shown + " (PCIe " + pcie + ")";
}

std::string bus_id_or_unknown(const std::string& id) { return id.empty() ? "(no bus id)" : id; }

}  // namespace

std::string format_diff_text(const TopologyDiff& d, const std::string& name_before,
                             const std::string& name_after) {
  std::ostringstream out;
  out << "A: " << name_before << " (" << d.gpus_before << " GPUs)\n";
  out << "B: " << name_after << " (" << d.gpus_after << " GPUs)\n";
  const std::size_t pairs = d.gpus_before * (d.gpus_before - (d.gpus_before ? 1 : 0)) / 2;
  if (d.pairing == "none") {
    out << "GPU count differs (" << d.gpus_before << " vs " << d.gpus_after
        << "): pairs cannot be compared\n";
  } else {
    if (d.pairing == "pci_bus_id") {
      out << "GPUs matched by PCI bus id\n";
    } else {
      // A guest renumbers its buses, so say exactly which GPUs were put side by side.
      if (d.bus_ids_unknown) {
        out << "GPUs matched by index: an nvidia-smi topo -m capture carries no PCI bus ids, so GPU<n> of A is "
               "put beside GPU<n> of B\n";
      } else {
        out << "GPUs matched by index (PCI bus order): the two sides have different PCI bus ids\n";
      }
      for (std::size_t i = 0; i < d.matched_bus_ids.size(); ++i)
        out << "  GPU" << i << "  A " << bus_id_or_unknown(d.matched_bus_ids[i].first) << "  B "
            << bus_id_or_unknown(d.matched_bus_ids[i].second) << "\n";
    }
    out << d.changed.size() << " of " << pairs << " pairs changed class\n";
    for (const PairChange& c : d.changed) {
      out << "  " << std::left << std::setw(12) << pair_name(c.gpu_a, c.gpu_b) << std::right;
      if (c.other_a != c.gpu_a || c.other_b != c.gpu_b)
        out << " (B: " << pair_name(c.other_a, c.other_b) << ")";
      out << "  " << label_of(c.before, c.pcie_before) << " -> " << label_of(c.after, c.pcie_after)
          << "\n";
    }
  }
  out << "Pairs per class:\n";
  out << "  " << std::left << std::setw(8) << "class" << std::right << std::setw(6) << "A"
      << std::setw(6) << "B"
      << "\n";
  for (const std::string& label : ordered_labels(d.counts_before, d.counts_after)) {
    const auto get = [&](const ClassCounts& m) {
      const auto it = m.find(label);
      return it == m.end() ? 0 : it->second;
    };
    out << "  " << std::left << std::setw(8) << label << std::right << std::setw(6)
        << get(d.counts_before) << std::setw(6) << get(d.counts_after) << "\n";
  }
  out << (d.same() ? "same topology\n" : "topologies differ\n");
  return out.str();
}

}  // namespace p2p::topo
