// The banner every HTML page opens with: the run's one verdict, its reasons most important
// first, and what was true of the whole run, before any figure.
#pragma once

#include <string>

#include "document/verdict.hpp"

namespace p2p::report {

// <div class="verdict pass|warn|fail"> with the headline, at most `max_reasons` reasons (then
// how many more) and the caveats; the styles it needs are in verdict_style().
std::string verdict_banner(const doc::RunVerdict& v, int max_reasons = 8);
const char* verdict_style();

}  // namespace p2p::report
