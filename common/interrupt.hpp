// SIGINT and SIGTERM during a long measurement: the first one asks the run to stop after the
// figure in progress, so what was measured is still written (marked interrupted); a second one
// ends the process at once, as the signal normally would.
#pragma once

#include <string>

namespace p2p {

// Installs the handlers for its lifetime; the previous ones come back afterwards.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

// The signal that asked the run to stop (SIGINT, SIGTERM), or 0.
int interrupt_signal() noexcept;
// "SIGTERM" / "SIGINT" / "signal N".
std::string interrupt_name(int sig);
// The exit code of a run stopped by `sig`, as a shell reports a process killed by it (128 + N).
int interrupted_exit_code(int sig);

}  // namespace p2p
