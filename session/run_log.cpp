#include "session/run_log.hpp"

#include "common/error.hpp"
#include "common/utc_time.hpp"
#include "harness/google_benchmark.hpp"
#include "report/run_lines.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {

RunLog::RunLog(const std::string& path, const std::string& command, const std::string& host,
               const std::vector<std::string>& benchmark_args)
    : command_(command), host_(host), lines_(open_jsonl(path)) {
  if (lines_ && lines_->to_stdout() && harness::benchmark_owns_stdout(benchmark_args))
    throw InputError(
        "--jsonl - and --benchmark_format both write to standard output: give --jsonl a file");
  write(report::run_start_line(command_, host_, utc_now_iso8601()));
}

void RunLog::write(const nlohmann::json& line) {
  if (lines_) lines_->write(line);
}

void RunLog::gate(const TopologyAndGate& tg) {
  if (!lines_ || !tg.gate.reasons) return;
  for (const auto& l : report::gate_lines(*tg.gate.reasons, command_, host_, utc_now_iso8601()))
    lines_->write(l);
}

int RunLog::end(int exit_code, const nlohmann::json& extra) {
  if (!lines_) return exit_code;
  lines_->write(report::run_end_line(command_, host_, utc_now_iso8601(), exit_code, extra));
  return exit_code;
}

}  // namespace p2p::session
