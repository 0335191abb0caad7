// One error path for the whole project: every failed library call becomes an ApiError that
// names the call, its error string and where it happened; bad user input becomes an
// InputError whose message is the one line the user sees. `main` maps them to exit codes.
#pragma once

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace p2p {

struct CallSite {
  const char* expr;
  const char* file;
  int line;
};

// A failed CUDA/NCCL/hwloc/libc call. `code` is the library's own error number.
class ApiError : public std::runtime_error {
 public:
  ApiError(const char* api, int code, const std::string& why, CallSite at)
      : std::runtime_error(std::string(api) + " error " + std::to_string(code) + " (" + why +
                           ") in `" + at.expr + "` at " + at.file + ":" + std::to_string(at.line)),
        code(code) {}
  const int code;
};

// A file, option or document the user gave us is missing or wrong. The message names the
// thing and the problem on one line ("policy.json: max_path: expected one of ...").
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reading or writing a file failed for a reason of the system, not of what the user asked: a
// full disk, a read-only directory, an I/O error, a pipe whose reader went away. The message
// names the file and carries the errno text; `main` maps it to exit 4 (kExitRuntime).
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No usable GPU (no driver, cuInit failed, no devices): `bench` exits with kNoGpu.
class NoGpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A transfer or collective did not finish within its deadline.
class HangError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `--exclusive` and a GPU another process or p2pcheck run is using: exit kExitBusy.
class BusyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// POSIX calls return -1 and set errno; the wrapper keeps plain ints from matching other overloads.
struct PosixRc {
  long rc;
};
inline void check(PosixRc r, CallSite at) {
  const int err = errno;
  if (r.rc < 0) throw ApiError("POSIX", err, std::strerror(err), at);
}
// hwloc follows the same convention.
struct HwlocRc {
  int rc;
};
inline void check(HwlocRc r, CallSite at) {
  const int err = errno;
  if (r.rc < 0) throw ApiError("hwloc", err, std::strerror(err), at);
}

}  // namespace p2p

#define P2P_CALL_SITE(expr) \
  ::p2p::CallSite { #expr, __FILE__, __LINE__ }
#define P2P_CHECK(expr) ::p2p::check((expr), P2P_CALL_SITE(expr))
#define P2P_CHECK_POSIX(expr) \
  ::p2p::check(::p2p::PosixRc{static_cast<long>(expr)}, P2P_CALL_SITE(expr))
#define P2P_CHECK_HWLOC(expr) ::p2p::check(::p2p::HwlocRc{(expr)}, P2P_CALL_SITE(expr))
