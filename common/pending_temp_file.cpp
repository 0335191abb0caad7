#include "common/pending_temp_file.hpp"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

namespace p2p {

namespace {

// Signals whose default action ends the process (and so would leave the file behind).
constexpr int kFatalSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr int kSignalCount = sizeof kFatalSignals / sizeof kFatalSignals[0];

std::mutex g_one_at_a_time;
// Read by the handler: a fixed buffer, no allocation, set before g_armed.
char g_path[PATH_MAX];
volatile sig_atomic_t g_armed = 0;
struct sigaction g_previous[kSignalCount];

int slot_of(int sig) {
  for (int k = 0; k < kSignalCount; ++k)
    if (kFatalSignals[k] == sig) return k;
  return -1;
}

void remove_now() {
  if (g_armed) ::unlink(g_path);  // async-signal-safe
  g_armed = 0;
}

bool ends_the_process(int sig) {
  struct sigaction now {};
  ::sigaction(sig, nullptr, &now);
  return (now.sa_flags & SA_SIGINFO) == 0 && now.sa_handler == SIG_DFL;
}

// Runs the handler that was there before; where there was none (or where that handler set the
// default action to end the process, as a second SIGINT does in bench), the file goes first.
void on_signal(int sig, siginfo_t* info, void* context) {
  const int k = slot_of(sig);
  if (k < 0) return;
  const struct sigaction& before = g_previous[k];
  if ((before.sa_flags & SA_SIGINFO) != 0 && before.sa_sigaction != nullptr) {
    before.sa_sigaction(sig, info, context);
  } else if (before.sa_handler == SIG_IGN) {
    return;
  } else if (before.sa_handler != SIG_DFL) {
    before.sa_handler(sig);
  } else {
    remove_now();
    ::signal(sig, SIG_DFL);
    ::raise(sig);  // delivered once this handler returns: the process ends as it would have
    return;
  }
  if (ends_the_process(sig)) remove_now();
}

}  // namespace

PendingTempFile::PendingTempFile(const std::string& path) : lock_(g_one_at_a_time) {
  if (path.size() >= sizeof g_path) throw std::runtime_error(path + ": path too long");
  std::memcpy(g_path, path.c_str(), path.size() + 1);
  g_armed = 1;
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  for (int k = 0; k < kSignalCount; ++k) ::sigaction(kFatalSignals[k], &sa, &g_previous[k]);
}

PendingTempFile::~PendingTempFile() {
  // The file goes before the handlers come back: a signal in between finds nothing to remove.
  if (!committed_) remove_now();
  g_armed = 0;
  for (int k = 0; k < kSignalCount; ++k) ::sigaction(kFatalSignals[k], &g_previous[k], nullptr);
}

void PendingTempFile::commit() noexcept {
  committed_ = true;
  g_armed = 0;
}

}  // namespace p2p
