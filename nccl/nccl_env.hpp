// The NCCL_* environment: what the user set (recorded with every run) and what p2pcheck sets
// before NCCL initialises so that NCCL writes its INFO log, which names the transport of every
// connection, to a file p2pcheck parses. NCCL reads these variables once per process (debug
// settings at its first call, NCCL_P2P_DISABLE at its first topology search), which is why the
// P2P-off comparison runs in a child process (run/p2p_off.hpp).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace p2p::nccl {

using EnvMap = std::map<std::string, std::string>;

// NCCL_* entries of an environment given as "NAME=value" strings. Pure.
EnvMap nccl_variables(const std::vector<std::string>& environment);
std::vector<std::string> current_environment();  // this process's environ

// The variables that route NCCL's INFO log for the init, P2P, SHM and NET subsystems to
// `log_path`, plus NCCL_P2P_DISABLE=1 when `p2p_disabled`. Pure.
EnvMap nccl_settings(const std::string& log_path, bool p2p_disabled);

// setenv() each entry, overwriting. Must run before the first NCCL call of the process.
void apply_environment(const EnvMap& settings);

// A file name under $TMPDIR (or /tmp) that no other process uses, removed on destruction.
// NCCL opens it for writing itself.
class TempPath {
 public:
  TempPath(const std::string& stem, const std::string& suffix);
  ~TempPath();
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string host_name();

}  // namespace p2p::nccl
