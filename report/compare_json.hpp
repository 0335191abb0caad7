// The comparison as `compare --format json` writes it: schema p2pcheck.compare v1 (README,
// "Comparing runs").
#pragma once

#include <nlohmann/json.hpp>

#include "document/bench_document.hpp"
#include "report/compare.hpp"

namespace p2p::report {

nlohmann::json comparison_json(const Comparison& c, const doc::BenchDocument& baseline,
                               const doc::BenchDocument& run);

}  // namespace p2p::report
