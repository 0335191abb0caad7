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
  // "-": standard output. The file is created (or an old one emptied) by the first line, so a run
  // that fails before it leaves an old file as it was; common/output_paths.hpp checks the path
  // before any work starts.
  explicit JsonLines(const std::string& path);
  ~JsonLines();
  JsonLines(const JsonLines&) = delete;
  JsonLines& operator=(const JsonLines&) = delete;

  // One line; thread-safe. Invalid UTF-8 in strings is replaced, never a reason to lose a line.
  // A failed write throws IoError "PATH: write failed: <errno text>" (a full disk, a closed pipe
  // must not pass silently); a path that cannot be created, InputError or IoError.
  void write(const nlohmann::json& line);
  bool to_stdout() const { return path_ == "-"; }

 private:
  void open_now();

  std::mutex mu_;
  int fd_ = -1;  // opened by the first line
  std::string path_;
};

}  // namespace p2p
