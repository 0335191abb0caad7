#include "session/bench_session.hpp"

#include <iostream>

#include "bench/measure/cases.hpp"
#include "bench/measure/run.hpp"
#include "common/utc_time.hpp"
#include "gpus/cuda_devices.hpp"
#include "harness/google_benchmark.hpp"
#include "report/bench_text.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/bench_options.hpp"
#include "session/gpu_sharing_check.hpp"
#include "session/measurement_pipeline.hpp"
#include "session/run_verdict.hpp"

namespace p2p::session {
namespace {

// bench's own part of the pipeline (session/measurement_pipeline.hpp): every case on every
// pair, the text tables, and the document judged.
class BenchMeasurement : public Measurement {
 public:
  explicit BenchMeasurement(const BenchRequest& r) : request_(r) {
    const std::vector<std::string> args = harness::checked_pass_through("bench", r.extras);
    // Google Benchmark gets the flags once, here: a bad flag exits 2 before any GPU work.
    harness::initialize_benchmark("bench", args);
    options_ = bench_options_for(r.sweep);
    options_.benchmark_args = args;
  }

  const std::vector<std::string>& benchmark_args() const { return options_.benchmark_args; }

  std::vector<std::string> bus_ids_to_measure() override {
    std::vector<std::string> all;
    for (const auto& d : gpus::discover_devices().devices) all.push_back(d.pci_bus_id);
    return measured_bus_ids(all, options_.gpus);
  }

  void measure(const TopologyAndGate& tg, RunLog& log) override {
    if (log.active()) {
      options_.on_figure = [&log](const nlohmann::json& figure) {
        log.write(report::figure_line(figure, log.host(), utc_now_iso8601()));
      };
    }
    outcome_ = bench::run_bench(
        options_, bench::BenchInputs{tg.snapshot, tg.gate, request_.gate.skip_gate}, std::cerr);
  }

  JudgedRun judge(const AfterMeasuring& after) override {
    doc::BenchDocument& d = outcome_.document;
    d.gpu_sharing = after.sharing;
    d.wall_s = after.used.wall_s;
    d.peak_rss_bytes = after.used.peak_rss_bytes;
    JudgedRun run;
    run.verdict =
        judge_measured(d, *after.acceptance, after.expect_gpus, after.interrupt_signal, "bench");
    run.text = report::render_text_tables(d);
    run.text_to_stderr = outcome_.benchmark_owns_stdout;
    run.junit = report::document_suites(
        d, request_.json_path.empty() ? std::string("bench") : request_.json_path);
    run.summary = run_end_summary(d);
    run.document = d;
    return run;
  }

 private:
  const BenchRequest& request_;
  bench::BenchOptions options_;
  bench::BenchOutcome outcome_;
};

}  // namespace

std::vector<BenchCaseLine> bench_cases() {
  std::vector<BenchCaseLine> out;
  for (const auto& c : bench::all_cases()) out.push_back({c.name, c.what});
  return out;
}

int run_bench_session(const BenchRequest& r) {
  BenchMeasurement bench(r);
  MeasurementRequest m;
  m.command = "bench";
  m.gate = r.gate;
  m.init_timeout_s = r.init_timeout_s;
  m.exclusive = r.exclusive;
  m.outputs = RunOutputs{r.json_path, r.jsonl, r.junit};
  m.benchmark_args = bench.benchmark_args();
  return run_measurement(m, bench);
}

}  // namespace p2p::session
