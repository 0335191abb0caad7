// The report's charts of a figure against message size (html_charts.cpp), as SVG, for the page
// frame of html_report.cpp.
#pragma once

#include <string>

#include "document/bench_document.hpp"

namespace p2p::report {

// One chart per bandwidth case: each route (and part) measured at two sizes or more a line;
// "" when no case has such a line.
std::string size_sweep_charts(const doc::BenchDocument& d);

// One chart per NCCL operation of `run` (busbw, or the time per call with one rank), each with
// a note when some of its sizes are not ok.
std::string nccl_operation_charts(const doc::NcclRun& run);

}  // namespace p2p::report
