#include "import/nccl_tests_command_line.hpp"

#include <cstdlib>

#include "common/text_lines.hpp"

namespace p2p::import {

std::string collective_of_command_line(const std::string& line) {
  for (const auto& token : split_ws(line)) {
    const std::string program = token.substr(token.find_last_of('/') + 1);  // npos + 1 == 0
    const auto perf = program.find("_perf");
    if (perf == std::string::npos || perf == 0) continue;
    const std::string tail = program.substr(perf);
    if (tail != "_perf" && tail != "_perf_mpi") continue;
    std::string name = program.substr(0, perf);
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos) return name;
  }
  return "";
}

std::optional<int> ranks_of_command_line(const std::string& line) {
  const auto tokens = split_ws(line);
  int threads = 1, gpus = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string program = tokens[k].substr(tokens[k].find_last_of('/') + 1);
    if (program == "mpirun" || program == "mpiexec" || program == "srun") return std::nullopt;
    if (k + 1 == tokens.size()) break;
    const int value = std::atoi(tokens[k + 1].c_str());
    if (tokens[k] == "-g" || tokens[k] == "--ngpus") gpus = value;
    if (tokens[k] == "-t" || tokens[k] == "--nthreads") threads = value;
  }
  if (gpus < 1 || threads < 1 || threads * gpus > 4096) return std::nullopt;
  return threads * gpus;
}

}  // namespace p2p::import
