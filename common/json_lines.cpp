#include "common/json_lines.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "common/error.hpp"
#include "common/json_text.hpp"

namespace p2p {

JsonLines::JsonLines(const std::string& path) : path_(path) {
  if (path.empty()) throw InputError("--jsonl: an output path is empty");
}

JsonLines::~JsonLines() {
  if (fd_ >= 0) ::close(fd_);
}

// The file is created (or an old one emptied) by the first line, not before: a run that fails on
// its inputs leaves what was there untouched.
void JsonLines::open_now() {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd_ < 0) {
    const int err = errno;
    if (err == EISDIR || err == ENOENT || err == ENOTDIR)
      throw InputError(path_ + ": cannot write: " + std::strerror(err));
    throw IoError(path_ + ": cannot write: " + std::strerror(err));
  }
}

void JsonLines::write(const nlohmann::json& line) {
  const std::string text = json_text(line, -1) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (to_stdout()) {
    std::cout << text << std::flush;
    if (!std::cout || std::fflush(stdout) != 0) {
      const int err = errno;
      std::cout.clear();
      throw IoError(std::string("standard output (--jsonl -): write failed: ") +
                    (err != 0 ? std::strerror(err) : "the stream refused the data"));
    }
    return;
  }
  if (fd_ < 0) open_now();
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path_ + ": write failed: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace p2p
