// JSON lines (one JSON object per line) written as they happen, for runs that may not reach
// their end: each line goes to the file in one write() as soon as it is known, so a run killed
// with SIGKILL, a node that loses power after the write, or a scheduler that times the job out
// leaves every line written before. Unlike the results documents this file is not written
// atomically: its point is to be read while it grows.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace p2p {

class JsonLines {
 public:
  // "-": standard output. A file is created (or truncated) now, so a bad path fails before any
  // work starts: InputError "PATH: cannot write: <reason>".
  explicit JsonLines(const std::string& path);
  ~JsonLines();
  JsonLines(const JsonLines&) = delete;
  JsonLines& operator=(const JsonLines&) = delete;

  // One line; thread-safe. Invalid UTF-8 in strings is replaced, never a reason to lose a line.
  // A failed write throws ApiError (a full disk must not pass silently).
  void write(const nlohmann::json& line);
  bool to_stdout() const { return fd_ < 0; }

 private:
  std::mutex mu_;
  int fd_ = -1;  // -1: standard output
  std::string path_;
};

}  // namespace p2p
