// Result records arranged as tables for the terminal: rows = source, columns = destination
// (like nvbandwidth and p2pBandwidthLatencyTest), and per-route size sweeps. Assembly is pure
// and separate from rendering so tests can check the arrangement itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "document/bench_document.hpp"

namespace p2p::report {

struct MatrixCell {
  std::optional<double> value;         // median GB/s or ns
  std::optional<double> achieved_pct;  // of the link ceiling
  doc::FigureStatus status = doc::FigureStatus::kOk;
  std::string text;  // shown instead of a number where set ("16MiB")
  std::string key;   // the figure's doc::figure_key, by which the verdict's checks name it
};

struct Matrix {
  std::string title;
  std::vector<std::string> rows;  // source labels, host first, then gpu0, gpu1, ..., all
  std::vector<std::string> cols;  // destination labels
  std::vector<std::vector<std::optional<MatrixCell>>> cells;  // [row][col]; nullopt: no figure
  std::vector<std::string> notes;  // ceilings used, waiver reasons, failures, errors
  bool lower_is_better = false;    // latencies: the smaller figure is the better one
};

// One matrix per (case, size, kind) where kind separates single transfers and the directions
// of concurrent runs ("dir") from their totals ("sum"). Cases keep their first-seen order,
// sizes ascend. With `largest_size_only`, only each case's largest size is kept.
std::vector<Matrix> bandwidth_matrices(const std::vector<doc::BandwidthResult>& records,
                                       bool largest_size_only);

// One matrix per latency case: row = GPU doing the loads, column = where the memory is.
std::vector<Matrix> latency_matrices(const std::vector<doc::LatencyResult>& records);

// Per case with more than one size: rows = routes, columns = sizes, then "peak" and "90% at".
std::vector<Matrix> sweep_tables(const std::vector<doc::BandwidthResult>& records);

// Fixed-width text. Values print with 2 decimals (1 above 1000), achieved % in parentheses.
std::string render(const Matrix& m);

// One cell as render() prints it: "55.34 (88%)", "waived", "error", "12.1 FAILED", "-".
std::string cell_text(const std::optional<MatrixCell>& cell);

}  // namespace p2p::report
