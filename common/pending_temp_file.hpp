// The temporary file of an atomic write, which must never outlive the write: removed when the
// scope ends without commit() (an exception, a failed write), and removed by a signal that ends
// the process meanwhile (SIGTERM from a scheduler, SIGINT, SIGHUP, SIGQUIT). A signal another
// handler takes (bench's and nccl's first SIGINT/SIGTERM only ask the run to stop) is passed to
// that handler and the write goes on; only where the signal ends the process is the file removed
// first. One such file exists at a time per process (atomic writes are serialised).
#pragma once

#include <mutex>
#include <string>

namespace p2p {

class PendingTempFile {
 public:
  // `path` was just created (mkstemp); from now on it is removed unless commit() is called.
  explicit PendingTempFile(const std::string& path);
  ~PendingTempFile();
  PendingTempFile(const PendingTempFile&) = delete;
  PendingTempFile& operator=(const PendingTempFile&) = delete;

  // The file was renamed into place: nothing to remove any more.
  void commit() noexcept;

 private:
  std::unique_lock<std::mutex> lock_;
  bool committed_ = false;
};

}  // namespace p2p
