// Lets two p2pcheck runs on one GPU notice each other. Each run holds an flock on a file of its
// own per GPU it measures, `<dir>/<PCI bus id>.<pid>.lock`, for as long as it measures; any run
// can then list the others by trying each such file: one still locked belongs to a live run,
// one that is not is left over from a run that died (the kernel drops flocks with the process)
// and is removed. The lock does not keep anyone out by itself: `--exclusive` refuses to start
// when it finds another holder, and every run records what it found (results/README.md,
// "gpu_sharing").
#pragma once

#include <string>
#include <vector>

namespace p2p {

// Where the lock files live: $P2P_LOCK_DIR if set, else /run/lock/p2pcheck (shared by every
// user: created world-writable and sticky), else $TMPDIR/p2pcheck-locks (or /tmp/...) where
// /run/lock is not writable. Created when missing; "" when none of them can be.
std::string gpu_lock_dir();

class GpuLocks {
 public:
  // Takes one lock per bus id in `dir`, named by `owner` (the pid; tests pass others). A lock
  // that cannot be taken (read-only directory) is left out: sharing is then seen through NVML
  // alone, and holders() says nothing about that GPU.
  GpuLocks(const std::string& dir, const std::vector<std::string>& bus_ids, long owner);
  ~GpuLocks();
  GpuLocks(const GpuLocks&) = delete;
  GpuLocks& operator=(const GpuLocks&) = delete;

  // The owners of the other live locks on `bus_id`, ascending.
  std::vector<long> others(const std::string& bus_id) const;
  // How many of the asked-for locks are held.
  std::size_t held() const { return held_.size(); }

 private:
  struct Held {
    std::string bus_id;
    std::string path;
    int fd;
  };
  std::string dir_;
  long owner_;
  std::vector<Held> held_;
};

}  // namespace p2p
