#include "common/hang_watchdog.hpp"

#include <cstdio>
#include <cstdlib>

#include "common/exit_codes.hpp"

namespace p2p {

HangWatchdog::HangWatchdog(std::string what, std::chrono::duration<double> timeout) {
  thread_ = std::thread([this, what = std::move(what), timeout] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (ended_.wait_for(lock, timeout, [this] { return done_; })) return;
    std::fprintf(stderr, "p2pcheck: error: %s did not return within %g s (hang); exiting\n",
                 what.c_str(), timeout.count());
    std::fflush(stderr);
    // The stuck call holds this process; no destructor could run past it.
    std::_Exit(kExitHang);
  });
}

HangWatchdog::~HangWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  ended_.notify_all();
  thread_.join();
}

}  // namespace p2p
