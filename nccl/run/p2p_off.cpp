#include "nccl/run/p2p_off.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/spawn_actions.hpp"
#include "document/bench_document.hpp"
#include "nccl/nccl_env.hpp"

extern char** environ;

namespace p2p::nccl {

doc::NcclRun run_in_child_process(const std::vector<std::string>& args) {
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
  const SpawnAttributes own_group(true);  // a Ctrl-C reaches it once, through us (below)
  pid_t pid = 0;
  const int rc =
      posix_spawn(&pid, "/proc/self/exe", actions.get(), own_group.get(), argv.data(), environ);
  if (rc != 0)
    throw std::runtime_error(std::string("cannot start the P2P-off run: ") + std::strerror(rc));
  // Polled rather than waited for, so a stop asked of this process (SIGINT/SIGTERM, caught by
  // the caller's InterruptGuard) is passed on once: the child then ends as its parent does,
  // after the case in progress, with what it measured.
  int status = 0;
  bool forwarded = false;
  for (;;) {
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid) break;
    if (got < 0 && errno != EINTR)
      throw std::runtime_error(std::string("waiting for the P2P-off run: ") + std::strerror(errno));
    if (const int sig = interrupt_signal(); sig != 0 && !forwarded) {
      ::kill(pid, sig);
      forwarded = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!WIFEXITED(status)) {
    throw std::runtime_error("the P2P-off run (child process) was killed by signal " +
                             std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : -1));
  }
  const int code = WEXITSTATUS(status);
  const bool stopped =
      code == interrupted_exit_code(SIGINT) || code == interrupted_exit_code(SIGTERM);
  if (code != 0 && code != 1 && code != 5 && !stopped) {
    throw std::runtime_error("the P2P-off run (child process) failed with exit code " +
                             std::to_string(code) + " (its message is above)");
  }
  // A child that hit a hang outside any one measurement (its HangWatchdog) exits 5 with no file.
  const auto written = try_read_text_file(json.path());
  if (!written || written->empty()) {
    throw std::runtime_error("the P2P-off run (child process) ended with exit code " +
                             std::to_string(code) + " and wrote no results (its message is above)");
  }
  return doc::read_nccl_section(json.path()).run;
}

}  // namespace p2p::nccl
