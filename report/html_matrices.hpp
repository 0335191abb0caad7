// The report's heatmaps of a document's bandwidth matrices (html_matrices.cpp), for the page
// frame of html_report.cpp; one matrix alone is render_heatmap (html_report.hpp).
#pragma once

#include <string>
#include <vector>

#include "report/bench_matrix.hpp"
#include "report/figure_outcomes.hpp"
#include "report/html_pairs.hpp"

namespace p2p::report {

// The heatmaps in their cases' order, except that the path without P2P (staged through host
// memory) sits beside the P2P copy it stands in for, so a pair that lost P2P reads across.
// Each cell is marked by what `outcomes` (the page's verdict) said of its figure.
std::string bandwidth_heatmaps(const std::vector<Matrix>& maps, const PairPaths& paths,
                               const FigureOutcomes& outcomes);

}  // namespace p2p::report
