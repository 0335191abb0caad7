// `p2pcheck infer --html FILE`: the results as one self-contained page for people (the report
// module's style and escaping): the model, the logical-run banner, the ranking with the
// recommendation, the budget verdicts, and per group its IPC check and message table with P2P
// off beside it. A pure function of the document.
#pragma once

#include <string>

#include "infer/results.hpp"

namespace p2p::infer {

std::string render_infer_html(const InferDocument& d);

}  // namespace p2p::infer
