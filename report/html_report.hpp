// The results document as one self-contained HTML page for people: the host and the gate's
// decision, the topology matrix, heatmaps of every bandwidth and latency matrix (each cell
// coloured by the share of its link's ceiling it reached), the message-size sweeps as charts,
// and for NCCL documents bandwidth against size per operation with the transport NCCL chose.
// No scripts, no external files: it opens from a CI artefact or a mail attachment as it is.
// A pure function of the document.
#pragma once

#include <string>

#include "document/bench_document.hpp"
#include "report/bench_matrix.hpp"
#include "report/markup_text.hpp"

namespace p2p::report {

class PairPaths;  // html_pairs.hpp

// `source` names the document in the page (its file name). InputError "<source>: ..." for a
// malformed NCCL section.
std::string render_html_report(const doc::BenchDocument& doc, const std::string& source);

// One matrix as a heatmap, for other pages built from documents too (side_by_side.hpp): cells
// coloured by the share of their link's ceiling, or of the matrix's best figure; GPU pairs with
// their path class when `paths` is given.
std::string render_heatmap(const Matrix& m, bool lower_is_better, const PairPaths* paths);

}  // namespace p2p::report
