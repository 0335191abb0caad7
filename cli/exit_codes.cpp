#include "cli/exit_codes.hpp"

#include <algorithm>

namespace p2p::cli {
namespace {

const std::vector<std::string> kJudging = {
    "doctor", "gate",  "topo diff", "vm plan", "vm compare", "vm verify", "bench",  "nccl",
    "infer",  "judge", "compare",   "check",   "node",       "merge",     "cluster"};

bool names(const ExitCode& c, const std::string& command) {
  if (c.commands.empty() || command.empty()) return true;
  return std::any_of(c.commands.begin(), c.commands.end(), [&](const std::string& named) {
    return named == command || named.rfind(command + " ", 0) == 0;  // "vm" lists "vm plan"'s
  });
}

}  // namespace

const std::vector<ExitCode>& exit_codes() {
  static const std::vector<ExitCode> table = {
      {"0", "success: the verdict passed (warnings allowed), or the output was written", {}},
      {"1", "a verdict against the host: blocked, failed, regressed, lost, missing or different",
       kJudging},
      {"2", "bad input: an unknown option, a missing or malformed file, a value out of range", {}},
      {"3",
       "no usable GPU: no driver, cuInit failed, no devices, or built without CUDA",
       {"doctor", "check", "topo", "gate", "vm plan", "bench", "nccl", "infer", "node"}},
      {"4",
       "a check could not be made or a result not written (CUDA, NCCL, hwloc or I/O failure)",
       {}},
      {"5", "a transfer or collective hung past its timeout", {"bench", "nccl", "infer", "judge"}},
      {"6",
       "--exclusive: another process is using a GPU to be measured",
       {"bench", "nccl", "infer"}},
      {"128+N",
       "stopped by signal N (130 SIGINT, 143 SIGTERM); what was measured is kept",
       {"bench", "nccl", "infer"}},
  };
  return table;
}

std::vector<ExitCode> exit_codes_of(const std::string& command) {
  std::vector<ExitCode> out;
  for (const auto& c : exit_codes())
    if (names(c, command)) out.push_back(c);
  return out;
}

std::string exit_codes_block(const std::string& command) {
  std::string out = "Exit codes (the same on every command):";
  for (const auto& c : exit_codes_of(command))
    out +=
        "\n  " + c.code + std::string(c.code.size() < 7 ? 7 - c.code.size() : 1, ' ') + c.meaning;
  return out;
}

}  // namespace p2p::cli
