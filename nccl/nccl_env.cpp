#include "nccl/nccl_env.hpp"

#include <unistd.h>

#include <cstdlib>

#include "common/error.hpp"

extern char** environ;

namespace p2p::nccl {

EnvMap nccl_variables(const std::vector<std::string>& environment) {
  EnvMap out;
  for (const auto& entry : environment) {
    if (entry.rfind("NCCL_", 0) != 0) continue;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    out[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return out;
}

std::vector<std::string> current_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) out.emplace_back(*e);
  return out;
}

EnvMap nccl_settings(const std::string& log_path, bool p2p_disabled) {
  EnvMap s = {
      {"NCCL_DEBUG", "INFO"},
      // INIT: versions, rings, channel counts; P2P/SHM/NET: one line per connection opened; ENV:
      // the variables NCCL took (NCCL_TOPO_FILE among them) and a topology file it could not open.
      {"NCCL_DEBUG_SUBSYS", "INIT,P2P,SHM,NET,ENV"},
      {"NCCL_DEBUG_FILE", log_path},
  };
  if (p2p_disabled) s["NCCL_P2P_DISABLE"] = "1";
  // A topology file: GRAPH adds NCCL's "Loading topology file" line, the proof it was read.
  if (const char* topo = std::getenv("NCCL_TOPO_FILE"); topo != nullptr && *topo != '\0')
    s["NCCL_DEBUG_SUBSYS"] += ",GRAPH";
  return s;
}

void apply_environment(const EnvMap& settings) {
  for (const auto& [name, value] : settings)
    P2P_CHECK_POSIX(::setenv(name.c_str(), value.c_str(), 1));
}

TempPath::TempPath(const std::string& stem, const std::string& suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/" + stem + "-XXXXXX" + suffix;
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  const int fd = ::mkstemps(buf.data(), static_cast<int>(suffix.size()));
  if (fd < 0) P2P_CHECK_POSIX(fd);
  ::close(fd);
  path_ = buf.data();
}

TempPath::~TempPath() {
  if (!path_.empty()) ::unlink(path_.c_str());
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "";
  return name;
}

}  // namespace p2p::nccl
