#include "common/pending_temp_file.hpp"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

namespace p2p {

namespace {

// Signals whose default action ends the process (and so would leave the files behind).
constexpr int kFatalSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr int kSignalCount = sizeof kFatalSignals / sizeof kFatalSignals[0];

// Slots are taken and given back under the mutex; the handler reads them without it: fixed
// buffers, no allocation, each path written before its slot is armed.
std::mutex g_slots_mutex;
char g_paths[kMaxPendingTempFiles][PATH_MAX];
volatile sig_atomic_t g_armed[kMaxPendingTempFiles] = {};  // to remove on a signal
bool g_taken[kMaxPendingTempFiles] = {};  // held by a PendingTempFile, committed or not
std::size_t g_held = 0;                   // slots taken; the handlers are ours while above 0
struct sigaction g_previous[kSignalCount];

int signal_slot(int sig) {
  for (int k = 0; k < kSignalCount; ++k)
    if (kFatalSignals[k] == sig) return k;
  return -1;
}

void remove_all_now() {
  for (std::size_t i = 0; i < kMaxPendingTempFiles; ++i) {
    if (g_armed[i]) ::unlink(g_paths[i]);  // async-signal-safe
    g_armed[i] = 0;
  }
}

bool ends_the_process(int sig) {
  struct sigaction now {};
  ::sigaction(sig, nullptr, &now);
  return (now.sa_flags & SA_SIGINFO) == 0 && now.sa_handler == SIG_DFL;
}

// Runs the handler that was there before; where there was none (or where that handler set the
// default action to end the process, as a second SIGINT does in bench), the files go first.
void on_signal(int sig, siginfo_t* info, void* context) {
  const int k = signal_slot(sig);
  if (k < 0) return;
  const struct sigaction& before = g_previous[k];
  if ((before.sa_flags & SA_SIGINFO) != 0 && before.sa_sigaction != nullptr) {
    before.sa_sigaction(sig, info, context);
  } else if (before.sa_handler == SIG_IGN) {
    return;
  } else if (before.sa_handler != SIG_DFL) {
    before.sa_handler(sig);
  } else {
    remove_all_now();
    ::signal(sig, SIG_DFL);
    ::raise(sig);  // delivered once this handler returns: the process ends as it would have
    return;
  }
  if (ends_the_process(sig)) remove_all_now();
}

}  // namespace

PendingTempFile::PendingTempFile(const std::string& path) : slot_(kMaxPendingTempFiles) {
  if (path.size() >= PATH_MAX) throw std::runtime_error(path + ": path too long");
  const std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (std::size_t i = 0; i < kMaxPendingTempFiles && slot_ == kMaxPendingTempFiles; ++i)
    if (!g_taken[i]) slot_ = i;
  if (slot_ == kMaxPendingTempFiles)
    throw std::runtime_error(path + ": more than " + std::to_string(kMaxPendingTempFiles) +
                             " temporary files at once");
  g_taken[slot_] = true;
  std::memcpy(g_paths[slot_], path.c_str(), path.size() + 1);
  g_armed[slot_] = 1;
  if (g_held++ > 0) return;
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  for (int k = 0; k < kSignalCount; ++k) ::sigaction(kFatalSignals[k], &sa, &g_previous[k]);
}

PendingTempFile::~PendingTempFile() {
  const std::lock_guard<std::mutex> lock(g_slots_mutex);
  // The file goes before the handlers come back: a signal in between finds nothing to remove.
  if (!committed_ && g_armed[slot_]) ::unlink(g_paths[slot_]);
  g_armed[slot_] = 0;
  g_taken[slot_] = false;
  if (--g_held > 0) return;
  for (int k = 0; k < kSignalCount; ++k) ::sigaction(kFatalSignals[k], &g_previous[k], nullptr);
}

void PendingTempFile::commit() noexcept {
  committed_ = true;
  g_armed[slot_] = 0;
}

}  // namespace p2p
