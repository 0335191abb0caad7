#include "report/compare_json.hpp"

#include "common/json_util.hpp"
#include "document/suspects.hpp"

namespace p2p::report {

nlohmann::json comparison_json(const Comparison& c, const doc::BenchDocument& baseline,
                               const doc::BenchDocument& run) {
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& f : c.figures) {
    figures.push_back({{"figure", f.key},
                       {"unit", f.unit},
                       {"baseline", optional_json(f.baseline)},
                       {"run", optional_json(f.run)},
                       {"change_pct", optional_json(f.change_pct)},
                       {"baseline_status", f.baseline_status},
                       {"run_status", f.run_status},
                       {"verdict", f.change},
                       {"outcome", f.outcome},
                       {"detail", f.detail},
                       {"baseline_source", f.baseline_source},
                       {"run_source", f.run_source}});
  }
  nlohmann::json counts = nlohmann::json::object();
  for (doc::Change k :
       {doc::Change::kRegressed, doc::Change::kLost, doc::Change::kMissing, doc::Change::kImproved,
        doc::Change::kSame, doc::Change::kNew, doc::Change::kNotJudged, doc::Change::kOneSideOnly})
    counts[doc::to_string(k)] = c.count(k);
  const nlohmann::json suspects = doc::suspects_json(c.verdict);
  return {{"schema", "p2pcheck.compare"},
          {"version", 2},
          {"verdict", c.verdict},
          {"suspect", suspects.at("suspect")},
          {"gpus", suspects.at("gpus")},
          {"caveats", c.verdict.caveats},
          {"counts", counts},
          {"regressions", c.regressions()},
          {"baseline_logical_gpus", baseline.logical_gpus},
          {"run_logical_gpus", run.logical_gpus},
          {"baseline_imported_from", doc::imported_from(baseline)},
          {"run_imported_from", doc::imported_from(run)},
          {"figures", figures}};
}

}  // namespace p2p::report
