#include "nccl/p2p_off.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/spawn_actions.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/report.hpp"

extern char** environ;

namespace p2p::nccl {

NcclRun run_in_child_process(const std::vector<std::string>& args) {
  TempPath json("p2pcheck-nccl-p2p-off", ".json");
  std::vector<std::string> full = {"p2pcheck"};
  full.insert(full.end(), args.begin(), args.end());
  full.push_back("--json");
  full.push_back(json.path());
  std::vector<char*> argv;
  for (auto& a : full) argv.push_back(a.data());
  argv.push_back(nullptr);

  SpawnFileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", actions.get(), nullptr, argv.data(), environ);
  if (rc != 0) throw std::runtime_error(std::string("cannot start the P2P-off run: ") + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waiting for the P2P-off run: ") + std::strerror(errno));
  }
  if (!WIFEXITED(status)) {
    throw std::runtime_error("the P2P-off run (child process) was killed by signal " +
                             std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : -1));
  }
  const int code = WEXITSTATUS(status);
  if (code != 0 && code != 1 && code != 5) {
    throw std::runtime_error("the P2P-off run (child process) failed with exit code " + std::to_string(code) +
                             " (its message is above)");
  }
  // A child that hit a hang outside any one measurement (its HangWatchdog) exits 5 with no file.
  const auto written = try_read_text_file(json.path());
  if (!written || written->empty()) {
    throw std::runtime_error("the P2P-off run (child process) ended with exit code " + std::to_string(code) +
                             " and wrote no results (its message is above)");
  }
  return read_report(json.path()).run;
}

}  // namespace p2p::nccl
