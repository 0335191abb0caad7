// The GPU pairs of a results document as a reader of an 8-GPU report needs them: the path class
// joining two GPUs (NV#, PIX, PXB, PHB, NODE, SYS, from the topology snapshot the run recorded)
// to print in each heatmap cell, and the pairs the verdict's reasons name or that lost P2P,
// listed before everything else. Pure functions of the document and its verdict.
#pragma once

#include <map>
#include <string>

#include "document/bench_document.hpp"
#include "document/verdict.hpp"

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

// "<h2>Pairs to look at first</h2>" and a table, worst first: pairs named by a failing reason of
// `verdict` (verification, link ceiling, floor, outlier, ...), then by a check that could not be
// made, then by a warning, then pairs without P2P (waived figures, no peer access); the most
// named first within each. Each row has its path class, its counts and its first reason; ""
// when every pair is fine.
std::string attention_section(const doc::BenchDocument& doc, const PairPaths& paths,
                              const doc::RunVerdict& verdict);

}  // namespace p2p::report
