// posix_spawn's file actions as a scope: what a spawned child's standard streams become.
#pragma once

#include <spawn.h>

namespace p2p {

class SpawnFileActions {
 public:
  SpawnFileActions() { posix_spawn_file_actions_init(&fa_); }
  ~SpawnFileActions() { posix_spawn_file_actions_destroy(&fa_); }
  SpawnFileActions(const SpawnFileActions&) = delete;
  SpawnFileActions& operator=(const SpawnFileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &fa_; }

 private:
  posix_spawn_file_actions_t fa_;
};

// posix_spawn's attributes as a scope. `own_process_group`: the child leads a process group of
// its own, so a Ctrl-C at the terminal reaches only the parent, which decides what to pass on.
class SpawnAttributes {
 public:
  explicit SpawnAttributes(bool own_process_group) {
    posix_spawnattr_init(&attr_);
    if (own_process_group) {
      posix_spawnattr_setflags(&attr_, POSIX_SPAWN_SETPGROUP);
      posix_spawnattr_setpgroup(&attr_, 0);
    }
  }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attr_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  const posix_spawnattr_t* get() const { return &attr_; }

 private:
  posix_spawnattr_t attr_;
};

}  // namespace p2p
