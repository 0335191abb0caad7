#include "common/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace p2p {

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

struct sigaction g_old_int {
}, g_old_term{};

void on_signal(int sig) {
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, sig)) return;  // the first: stop after this figure
  // The second: the user means it. Default action, re-raised: the process ends now.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

int interrupt_signal() noexcept { return g_signal.load(); }

std::string interrupt_name(int sig) {
  if (sig == SIGINT) return "SIGINT";
  if (sig == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(sig);
}

int interrupted_exit_code(int sig) { return 128 + sig; }

}  // namespace p2p
