// The results document as one self-contained HTML page for people: the verdict with its suspect,
// the host and the gate's decision, the topology matrix, heatmaps of every bandwidth and latency
// matrix (each cell marked by its check's outcome, a passing one shaded by the share of its
// link's ceiling), the message-size sweeps as charts, and for NCCL documents bandwidth against
// size per operation with the transport NCCL chose.
// No scripts, no external files: it opens from a CI artefact or a mail attachment as it is.
// A pure function of the document.
#pragma once

#include <string>

#include "document/bench_document.hpp"
#include "report/bench_matrix.hpp"
#include "report/markup_text.hpp"

namespace p2p::report {

class PairPaths;       // html_pairs.hpp
class FigureOutcomes;  // figure_outcomes.hpp

// `source` names the document in the page (its file name). InputError "<source>: ..." for a
// malformed NCCL section.
std::string render_html_report(const doc::BenchDocument& doc, const std::string& source);

// One matrix as a heatmap, for other pages built from documents too (side_by_side.hpp): each
// cell marked by what `outcomes` said of its figure (fail, warn, pass, not judged), a passing
// cell shaded by the share of its link's ceiling, or of the matrix's best figure (every
// measured cell is shaded when `outcomes` is null); GPU pairs with their path class when
// `paths` is given.
std::string render_heatmap(const Matrix& m, const PairPaths* paths, const FigureOutcomes* outcomes);

// What the marks and shades of the heatmaps mean, shown once above them.
std::string heat_legend();

}  // namespace p2p::report
