// The GPU pairs of a results document as a reader of an 8-GPU report needs them: the path class
// joining two GPUs (NV#, PIX, PXB, PHB, NODE, SYS, from the topology snapshot the run recorded)
// to print in each heatmap cell, and the pairs that failed verification, errored or lost P2P,
// listed before everything else. Pure functions of the document.
#pragma once

#include <map>
#include <string>

#include "document/bench_document.hpp"

namespace p2p::report {

class PairPaths {
 public:
  explicit PairPaths(const doc::BenchDocument& doc);
  // "NV4", "PHB", "same device" (two logical GPUs on one device); "" when either is not a GPU
  // or the document's topology does not say.
  std::string between(const std::string& a, const std::string& b) const;

 private:
  std::map<std::string, int> topology_index_;     // "gpu3" -> row of the snapshot's matrix
  std::map<std::string, int> device_;             // "gpu3" -> the CUDA device it ran on
  std::vector<std::vector<std::string>> matrix_;  // the snapshot's display matrix
};

// "<h2>Pairs to look at first</h2>" and a table, worst first: pairs with a figure that failed
// verification, then errors, then pairs without P2P (waived figures, no peer access), each with
// its path class and the first reason; "" when every pair is fine.
std::string attention_section(const doc::BenchDocument& doc, const PairPaths& paths);

}  // namespace p2p::report
