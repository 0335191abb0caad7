#include "common/json_lines.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "common/error.hpp"
#include "common/json_text.hpp"

namespace p2p {

JsonLines::JsonLines(const std::string& path) : path_(path) {
  if (path == "-") return;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) throw InputError(path + ": cannot write: " + std::strerror(errno));
}

JsonLines::~JsonLines() {
  if (fd_ >= 0) ::close(fd_);
}

void JsonLines::write(const nlohmann::json& line) {
  const std::string text = json_text(line, -1) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ < 0) {
    std::cout << text << std::flush;
    if (!std::cout) throw std::runtime_error("standard output: write failed");
    return;
  }
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    P2P_CHECK_POSIX(n);
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace p2p
