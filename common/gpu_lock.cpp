#include "common/gpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace p2p {

namespace {

namespace fs = std::filesystem;

// Bus ids contain ':' and '.', both fine in file names; anything else odd becomes '_'.
std::string file_stem(const std::string& bus_id) {
  std::string s = bus_id;
  for (char& c : s) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '.' || c == '-';
    if (!ok) c = '_';
  }
  return s;
}

bool usable_dir(const std::string& dir, mode_t mode) {
  if (::mkdir(dir.c_str(), mode) == 0) {
    ::chmod(dir.c_str(),
            mode);  // the umask narrowed it; other users must be able to add their locks
  } else if (errno != EEXIST) {
    return false;
  }
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
         ::access(dir.c_str(), W_OK | X_OK) == 0;
}

}  // namespace

std::string gpu_lock_dir() {
  if (const char* dir = std::getenv("P2P_LOCK_DIR"); dir != nullptr && *dir != '\0')
    return usable_dir(dir, 0700) ? dir : "";
  if (usable_dir("/run/lock/p2pcheck", 01777)) return "/run/lock/p2pcheck";
  const char* tmp = std::getenv("TMPDIR");
  const std::string fallback =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/p2pcheck-locks";
  return usable_dir(fallback, 01777) ? fallback : "";
}

GpuLocks::GpuLocks(const std::string& dir, const std::vector<std::string>& bus_ids, long owner)
    : dir_(dir), owner_(owner) {
  if (dir.empty()) return;
  for (const auto& bus : bus_ids) {
    const std::string path = dir + "/" + file_stem(bus) + "." + std::to_string(owner) + ".lock";
    // Locked under a private name first, then renamed into view: a run that lists the
    // directory never sees our file unlocked and takes it for a dead run's.
    const std::string staging = path + ".new";
    const int fd = ::open(staging.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::rename(staging.c_str(), path.c_str()) != 0) {
      ::close(fd);
      ::unlink(staging.c_str());
      continue;
    }
    held_.push_back({bus, path, fd});
  }
}

GpuLocks::~GpuLocks() {
  for (const auto& h : held_) {
    ::unlink(h.path.c_str());  // before the unlock, so nobody finds it unlocked and "stale"
    ::close(h.fd);
  }
}

std::vector<long> GpuLocks::others(const std::string& bus_id) const {
  std::vector<long> out;
  if (dir_.empty()) return out;
  const std::string prefix = file_stem(bus_id) + ".";
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() < prefix.size() + 6 ||
        name.substr(name.size() - 5) != ".lock")
      continue;
    const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - 5);
    char* end_of_number = nullptr;
    const long pid = std::strtol(middle.c_str(), &end_of_number, 10);
    if (middle.empty() || *end_of_number != '\0' || pid == owner_) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
      if (errno == EWOULDBLOCK) out.push_back(pid);  // held: a live run
    } else {
      ::unlink(it->path().c_str());  // left behind by a run that died
    }
    ::close(fd);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace p2p
