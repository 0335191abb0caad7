// The temporary files of atomic writes, which must never outlive their write: each is removed
// when its scope ends without commit() (an exception, a failed write), and every one still held
// is removed by a signal that ends the process meanwhile (SIGTERM from a scheduler, SIGINT,
// SIGHUP, SIGQUIT). A signal another handler takes (bench's and nccl's first SIGINT/SIGTERM only
// ask the run to stop) is passed to that handler and the writes go on; only where the signal ends
// the process are the files removed first. Up to kMaxPendingTempFiles are held at once (the
// outputs of one command, staged so that they are replaced together).
#pragma once

#include <cstddef>
#include <string>

namespace p2p {

constexpr std::size_t kMaxPendingTempFiles = 16;

class PendingTempFile {
 public:
  // `path` was just created (mkstemp); from now on it is removed unless commit() is called.
  // std::runtime_error when kMaxPendingTempFiles are already held or the path is too long.
  explicit PendingTempFile(const std::string& path);
  ~PendingTempFile();
  PendingTempFile(const PendingTempFile&) = delete;
  PendingTempFile& operator=(const PendingTempFile&) = delete;

  // The file was renamed into place: nothing to remove any more.
  void commit() noexcept;

 private:
  std::size_t slot_;
  bool committed_ = false;
};

}  // namespace p2p
