#include "common/isolated.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "common/enum_names.hpp"

namespace p2p {

namespace {

constexpr EnumNames<IsolatedStatus, 4> kIsolatedStatuses{{{IsolatedStatus::kCompleted, "completed"},
                                                          {IsolatedStatus::kCrashed, "crashed"},
                                                          {IsolatedStatus::kTimedOut, "timed_out"},
                                                          {IsolatedStatus::kFailed, "failed"}}};

using Clock = std::chrono::steady_clock;

// How long to wait for a killed child to be reaped. A child stuck in the kernel (D state inside
// a driver ioctl) ignores SIGKILL; we then leave it and say so rather than hang with it.
constexpr int kReapGraceMs = 2000;

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(sig);
  }
}

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nothing left to tell
    done += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void child(int fd, const std::function<void(const Emit&)>& body) {
  ::signal(SIGPIPE, SIG_IGN);
  // A crash in the child must end it by that signal, so the parent can name it ("SIGSEGV"):
  // handlers inherited from the parent (a sanitizer runtime's, which would turn the crash into
  // "exit status 1") are dropped.
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::signal(sig, SIG_DFL);
  const Emit emit = [fd](const std::string& line) {
    std::string one = line;
    for (char& c : one)
      if (c == '\n') c = ' ';
    write_all(fd, one + "\n");
  };
  int code = 0;
  try {
    body(emit);
  } catch (...) {
    code = 3;
  }
  ::_exit(code);  // never run the parent's atexit handlers or flush its stdio twice
}

// Reaps `pid` within `budget_ms`; false if it is still there.
bool reap(pid_t pid, int budget_ms, int& status) {
  const auto until = Clock::now() + std::chrono::milliseconds(budget_ms);
  while (true) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return false;
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Reads the child's lines from `fd` until it closes the pipe or `deadline` passes, keeping the last
// complete one in `last_line`; true where the deadline passed first.
bool read_lines(int fd, Clock::time_point deadline, std::string& last_line) {
  std::string pending;
  char buf[4096];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return true;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return ready == 0;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // EOF: the child exited (or closed the pipe)
    pending.append(buf, static_cast<std::size_t>(n));
    for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
      last_line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
    }
  }
}

// How a reaped child ended, from its wait status: a signal, an error exit, or done.
void judge_exit(int status, IsolatedResult& r) {
  if (WIFSIGNALED(status)) {
    r.status = IsolatedStatus::kCrashed;
    r.detail = signal_name(WTERMSIG(status));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    r.status = IsolatedStatus::kFailed;
    r.detail = "exit status " + std::to_string(WEXITSTATUS(status));
  } else {
    r.status = IsolatedStatus::kCompleted;
  }
}

}  // namespace

const char* to_string(IsolatedStatus s) { return name_in(kIsolatedStatuses, s); }

IsolatedResult run_isolated(const std::function<void(const Emit&)>& body, int timeout_ms) {
  IsolatedResult r;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    r.status = IsolatedStatus::kFailed;
    r.detail = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.status = IsolatedStatus::kFailed;
    r.detail = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], body);
  }
  ::close(fds[1]);

  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  bool timed_out = read_lines(fds[0], deadline, r.output);
  ::close(fds[0]);

  int status = 0;
  bool reaped = false;
  if (!timed_out) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    reaped = reap(pid, static_cast<int>(std::max<long long>(left, 0)) + kReapGraceMs, status);
    timed_out = !reaped;
  }
  if (timed_out) {
    ::kill(pid, SIGKILL);
    reaped = reap(pid, kReapGraceMs, status);
    r.status = IsolatedStatus::kTimedOut;
    r.detail = "no result after " + std::to_string(timeout_ms / 1000) + " s" +
               (reaped ? "" : "; the child is stuck in the kernel and could not be reaped");
    return r;
  }
  judge_exit(status, r);
  return r;
}

}  // namespace p2p
