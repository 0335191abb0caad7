#include "doctor/collect/collect_io.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <memory>
#include <sstream>

#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor::io {

namespace {

template <class T>
Observed<T> failure(int err) {
  if (err == ENOENT || err == ENOTDIR) return Observed<T>::missing();
  return Observed<T>::unreadable(errno_name(err));
}

}  // namespace

std::string root_prefix(const std::string& root) {
  std::string r = root;
  while (!r.empty() && r.back() == '/') r.pop_back();
  return r;
}

Observed<std::string> read_file(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: a FIFO or a device node under a fixture root must not block the collector.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return failure<std::string>(errno);
  std::string data;
  char buf[8192];
  while (data.size() < max_bytes) {
    const ssize_t n = ::read(fd, buf, std::min(sizeof buf, max_bytes - data.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      // sysfs attributes the device does not implement (aer_dev_* on a bridge, ...) fail on read.
      return failure<std::string>(err == EAGAIN ? EIO : err);
    }
    if (n == 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return Observed<std::string>::of(std::move(data));
}

Observed<std::string> read_trimmed(const std::string& path) {
  auto r = read_file(path, 1u << 16);
  if (r.present()) r.value = trim(r.value);
  return r;
}

Observed<std::vector<std::string>> list_dir(const std::string& path) {
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(path.c_str()), &::closedir);
  if (!dir) return failure<std::vector<std::string>>(errno);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir.get())) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  return Observed<std::vector<std::string>>::of(std::move(names));
}

Observed<std::string> read_link(const std::string& path) {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
  if (n < 0) return failure<std::string>(errno);
  return Observed<std::string>::of(std::string(buf, static_cast<std::size_t>(n)));
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace p2p::doctor::io
