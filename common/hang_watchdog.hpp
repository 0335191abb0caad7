// A deadline for a blocking call that offers none of its own (ncclCommInitAll, ncclCommAbort,
// ncclCommDestroy can wait forever on a wedged GPU or a peer that never arrives). If the
// guarded scope is still running when the time is up, the process prints one line naming the
// call and exits with kExitHang: a hang never hangs the tool. Nothing half-written is left
// behind, because p2pcheck writes every file atomically once its run is complete.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace p2p {

class HangWatchdog {
 public:
  HangWatchdog(std::string what, std::chrono::duration<double> timeout);
  ~HangWatchdog();  // the scope ended in time: disarm
  HangWatchdog(const HangWatchdog&) = delete;
  HangWatchdog& operator=(const HangWatchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable ended_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace p2p
