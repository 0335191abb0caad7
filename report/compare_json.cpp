#include "report/compare_json.hpp"

#include "common/json_util.hpp"

namespace p2p::report {

nlohmann::json comparison_json(const Comparison& c, const bench::BenchDocument& baseline,
                               const bench::BenchDocument& run) {
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& f : c.figures) {
    figures.push_back({{"figure", f.key},
                       {"unit", f.unit},
                       {"baseline", optional_json(f.baseline)},
                       {"run", optional_json(f.run)},
                       {"change_pct", optional_json(f.change_pct)},
                       {"baseline_status", f.baseline_status},
                       {"run_status", f.run_status},
                       {"verdict", f.verdict},
                       {"detail", f.detail},
                       {"baseline_source", f.baseline_source},
                       {"run_source", f.run_source}});
  }
  return {{"schema", "p2pcheck.compare"},
          {"version", 1},
          {"regressions", c.regressions()},
          {"baseline_logical_gpus", baseline.logical_gpus},
          {"run_logical_gpus", run.logical_gpus},
          {"baseline_imported_from", bench::imported_from(baseline)},
          {"run_imported_from", bench::imported_from(run)},
          {"figures", figures}};
}

}  // namespace p2p::report
