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

}  // namespace p2p
