// The last lines of `topo` and `topo diff`, in the grammar every command ends with
// (common/verdict_line.hpp).
#include "common/verdict_line.hpp"
#include "topology/diff.hpp"

namespace p2p::topo {

std::string class_counts_text(const ClassCounts& counts) {
  std::string out;
  for (const auto& label : ordered_labels(counts, {}))
    out += (out.empty() ? "" : ", ") + std::to_string(counts.at(label)) + " " + label;
  return out;
}

std::string topology_verdict_line(const TopologySnapshot& t) {
  const std::size_t n = t.gpus.size();
  std::string what = std::to_string(n) + " GPU" + (n == 1 ? "" : "s");
  if (n > 1)
    what += ", " + std::to_string(n * (n - 1) / 2) +
            " pairs: " + class_counts_text(count_pair_classes(t));
  if (t.environment.kind == "vm") what += "; in a VM (its PCIe tree is the hypervisor's)";
  return verdict_line("topo", VerdictWord::kPass, what);
}

std::string diff_verdict_line(const TopologyDiff& d) {
  if (d.gpus_before != d.gpus_after)
    return verdict_line(
        "topo diff", VerdictWord::kFail,
        "A has " + std::to_string(d.gpus_before) + " GPUs, B " + std::to_string(d.gpus_after));
  const std::size_t pairs = d.gpus_before * (d.gpus_before - (d.gpus_before > 0 ? 1 : 0)) / 2;
  if (d.changed.empty())
    return verdict_line("topo diff", VerdictWord::kPass,
                        "the same topology: " + std::to_string(pairs) + " pairs alike");
  const PairChange& c = d.changed.front();
  return verdict_line("topo diff", VerdictWord::kFail,
                      std::to_string(d.changed.size()) + " of " + std::to_string(pairs) +
                          " pairs differ, first " + pair_name(c.gpu_a, c.gpu_b) + ": " + c.before +
                          " in A, " + c.after + " in B");
}

}  // namespace p2p::topo
