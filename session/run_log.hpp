// `--jsonl` of a measuring run on this host (bench, nccl): the run_start line first, naming the
// host before anything can hang or fail, then what the run adds (the gate's reasons, figures,
// results), and run_end with the exit code. Without a path it writes nothing.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/json_lines.hpp"
#include "session/gate_verdict.hpp"

namespace p2p::session {

class RunLog {
 public:
  // Opens `path` ("" = no lines, "-" = stdout) and writes run_start. InputError when stdout is
  // asked for while --benchmark_format (in `benchmark_args`) already writes there.
  RunLog(const std::string& path, const std::string& command, const std::string& host,
         const std::vector<std::string>& benchmark_args);

  bool active() const { return lines_ != nullptr; }
  bool to_stdout() const { return lines_ && lines_->to_stdout(); }
  const std::string& host() const { return host_; }

  void write(const nlohmann::json& line);
  // One line per gate reason, when the gate ran.
  void gate(const TopologyAndGate& tg);
  // run_end with `extra` and the exit code; returns `exit_code`.
  int end(int exit_code, const nlohmann::json& extra);

 private:
  std::string command_;
  std::string host_;
  std::unique_ptr<JsonLines> lines_;
};

}  // namespace p2p::session
