#include "common/file_io.hpp"

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "common/error.hpp"
#include "common/file_io_hooks.hpp"
#include "common/json_shape.hpp"
#include "common/json_text.hpp"
#include "common/pending_temp_file.hpp"

namespace p2p {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// How long a read from a pipe may wait for its writer before the input counts as hung.
constexpr int kPipeIdleMs = 30'000;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

struct ReadOutcome {
  std::optional<std::string> data;
  std::string problem;      // why data is empty
  bool io_failure = false;  // read() itself failed (EIO): the system's fault, not the input's
};

// Opens without blocking (a FIFO with no writer, a tty), refuses what cannot be a file's
// content, then reads at most max_bytes. `wait_for_pipe`: a pipe's writer may take a while.
ReadOutcome bounded_read(const std::string& path, std::size_t max_bytes, bool wait_for_pipe) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return {std::nullopt, "cannot read: " + errno_text(errno)};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return {std::nullopt, "cannot read: " + errno_text(errno)};
  if (S_ISDIR(st.st_mode)) return {std::nullopt, "is a directory, not a file"};
  const bool pipe = S_ISFIFO(st.st_mode);
  if (!S_ISREG(st.st_mode) && !pipe) return {std::nullopt, "is not a regular file or a pipe"};
  std::string data;
  std::vector<char> buf(1 << 16);
  while (true) {
    if (pipe && wait_for_pipe) {
      // Wait for data (a FIFO's writer may not even have opened it yet: Linux reports no
      // hang-up before a first writer came and went), but not forever.
      pollfd p{fd.get(), POLLIN, 0};
      const int ready = ::poll(&p, 1, kPipeIdleMs);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0)
        return {std::nullopt,
                "the pipe sent nothing for " + std::to_string(kPipeIdleMs / 1000) + " s"};
      if ((p.revents & POLLIN) == 0) break;  // the writer closed: end of input
    }
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN && pipe) {
      if (!wait_for_pipe) break;
      continue;
    }
    if (n < 0) return {std::nullopt, "read failed: " + errno_text(errno), true};
    if (n == 0) break;
    data.append(buf.data(), static_cast<std::size_t>(n));
    if (data.size() > max_bytes) {
      return {std::nullopt, "larger than " + std::to_string(max_bytes >> 20) +
                                " MiB; not an input p2pcheck reads"};
    }
  }
  return {std::move(data), ""};
}

// Where a write to `path` must land: the final target of any chain of symbolic links.
std::string resolve_output(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::vector<char> target(PATH_MAX);
    const ssize_t n = ::readlink(p.c_str(), target.data(), target.size() - 1);
    if (n < 0) throw InputError(path + ": cannot follow the link: " + errno_text(errno));
    std::string t(target.data(), static_cast<std::size_t>(n));
    if (t.empty() || t[0] != '/') {
      std::vector<char> copy(p.begin(), p.end());
      copy.push_back('\0');
      t = std::string(::dirname(copy.data())) + "/" + t;
    }
    p = t;
  }
  throw InputError(path + ": too many levels of symbolic links");
}

}  // namespace

std::string directory_of(const std::string& path) {
  std::vector<char> copy(path.begin(), path.end());
  copy.push_back('\0');
  return ::dirname(copy.data());
}

std::string base_of(const std::string& path) {
  std::vector<char> copy(path.begin(), path.end());
  copy.push_back('\0');
  return ::basename(copy.data());
}

std::optional<std::string> try_read_text_file(const std::string& path, std::size_t max_bytes) {
  return bounded_read(path, max_bytes, false).data;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  ReadOutcome r = bounded_read(path, max_bytes, true);
  if (!r.data && r.io_failure) throw IoError(path + ": " + r.problem);
  if (!r.data) throw InputError(path + ": " + r.problem);
  return std::move(*r.data);
}

std::string json_error_tail(const std::string& what, bool with_pointer) {
  const auto cut = what.find("] ");
  std::string tail = cut == std::string::npos ? what : what.substr(cut + 2);
  // With JSON_DIAGNOSTICS (CMakeLists.txt) the library puts the value's JSON pointer first:
  // "(/bandwidth/0/median_gbps) type must be number" reads "/bandwidth/0/median_gbps: type ...".
  if (tail.size() > 3 && tail[0] == '(' && tail[1] == '/') {
    const auto close = tail.find(") ");
    if (close != std::string::npos)
      tail = (with_pointer ? tail.substr(1, close - 1) + ": " : std::string()) +
             tail.substr(close + 2);
  }
  return tail;
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  if (const auto problem = json_shape_problem(text, kMaxJsonDepth))
    throw InputError(source + ": not valid JSON: line " + std::to_string(problem->line) + ": " +
                     problem->what);
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    // json_text writes a byte that is not UTF-8 as the text `\xNN` (in JSON: "\\xNN"); reading
    // turns it back into the byte, so a document read and written again is the same text.
    if (text.find("\\\\x") != std::string::npos) j = unescaped_copy(j);
    return j;
  } catch (const nlohmann::json::exception& e) {
    // Numbers beyond a double's range come as out_of_range, not parse_error: bad input too.
    throw InputError(source + ": not valid JSON: " + json_error_tail(e.what()));
  }
}

nlohmann::json parse_own_json(const std::string& text, const std::string& what) {
  try {
    return parse_json_text(text, what);
  } catch (const InputError& e) {
    throw std::runtime_error(e.what());
  }
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_text(read_text_file(path), path);
}

namespace {

// Every byte of `content` to `fd`, or IoError naming `path` with the errno text.
void write_all(int fd, const std::string& content, const std::string& path) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path + ": write failed: " + errno_text(errno));
    done += static_cast<std::size_t>(n);
  }
}

void write_to_stdout(const std::string& content) {
  std::cout << content << std::flush;
  if (!std::cout || std::fflush(stdout) != 0) {
    const int err = errno;
    std::cout.clear();
    throw IoError(std::string("standard output: write failed: ") +
                  (err != 0 ? errno_text(err) : "the stream refused the data"));
  }
}

// A character device (/dev/null, /dev/full, a terminal) or a pipe: written into, as a shell's
// `>` would, never replaced. A pipe nobody reads is an error, not a wait.
void write_into(const std::string& path, const std::string& target, const std::string& content) {
  Fd fd(::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENXIO) throw IoError(path + ": cannot write: no process reads this pipe");
    throw IoError(path + ": cannot write: " + errno_text(errno));
  }
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  write_all(fd.get(), content, path);
  if (::close(fd.release()) != 0) throw IoError(path + ": write failed: " + errno_text(errno));
}

// The signals that end the process, blocked from the temporary file's creation until
// PendingTempFile holds it: one delivered in between would end the process with the file left
// behind. Pending ones are delivered when the block ends, and then remove the file.
class EndingSignalsBlocked {
 public:
  EndingSignalsBlocked() {
    sigset_t s;
    sigemptyset(&s);
    for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaddset(&s, sig);
    pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~EndingSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  EndingSignalsBlocked(const EndingSignalsBlocked&) = delete;
  EndingSignalsBlocked& operator=(const EndingSignalsBlocked&) = delete;

 private:
  sigset_t old_{};
};

// The temporary file beside `target`, created with O_EXCL. A directory that is not there is the
// user's path (bad input); any other failure (read-only, full, EIO) is the system's.
Fd create_beside(const std::string& path, const std::string& target, std::string& tmp) {
  const std::string tmpl = directory_of(target) + "/." + base_of(target) + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  Fd fd(::mkostemp(name.data(), O_CLOEXEC));
  if (fd.get() < 0) {
    const int err = errno;
    // ENOENT also comes from a file system that takes no new file (/proc): the system's refusal
    // unless the directory itself is missing.
    struct stat dir {};
    const bool is_dir = ::stat(directory_of(target).c_str(), &dir) == 0 && S_ISDIR(dir.st_mode);
    if ((err == ENOENT || err == ENOTDIR) && !is_dir)
      throw InputError(path + ": cannot write: " + directory_of(target) + " is not a directory");
    throw IoError(path + ": cannot write: " + errno_text(err));
  }
  tmp = name.data();
  return fd;
}

}  // namespace

namespace {

// One output on its way: a regular file staged in its temporary (written and synced, not yet in
// place), or a stream (standard output, a device, a pipe) written into once the files are placed.
struct Output {
  const FileToWrite* file = nullptr;
  std::string target;  // the regular file the temporary replaces; "" for a stream
  std::string tmp;
  std::unique_ptr<PendingTempFile> pending;
};

// "" where `path` is written into (standard output, a character device, a pipe) rather than
// replaced; InputError where it is a directory or anything else that is not a regular file.
std::string replaced_target(const std::string& path) {
  if (path == "-") return "";
  if (path.empty()) throw InputError("an output path is empty");
  std::string target = resolve_output(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return "";
    throw InputError(path + (S_ISDIR(st.st_mode) ? ": is a directory" : ": is not a regular file") +
                     "; refusing to replace it");
  }
  return target;
}

void stage(Output& o) {
  const std::string& path = o.file->path;
  auto blocked = std::make_unique<EndingSignalsBlocked>();
  Fd fd = create_beside(path, o.target, o.tmp);
  if (file_io_hooks::after_temp_created != nullptr) file_io_hooks::after_temp_created();
  // removed on every way out but the rename, a signal included
  o.pending = std::make_unique<PendingTempFile>(o.tmp);
  blocked.reset();
  // mkstemp creates 0600; results are meant to be read by others, as a plain create would be.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd.get(), 0666 & ~mask) != 0)
    throw IoError(path + ": cannot write: " + errno_text(errno));
  write_all(fd.get(), o.file->content, path);
  if (::fsync(fd.get()) != 0) throw IoError(path + ": write failed: " + errno_text(errno));
  if (::close(fd.release()) != 0) throw IoError(path + ": write failed: " + errno_text(errno));
}

}  // namespace

void write_text_file_atomically(const std::string& path, const std::string& content) {
  // The batch skips an empty path (an output not asked for); one path given alone must say one.
  if (path.empty()) throw InputError("an output path is empty");
  write_text_files_atomically({{path, content}});
}

void write_text_files_atomically(const std::vector<FileToWrite>& files) {
  std::vector<Output> outputs;
  for (const auto& f : files) {
    if (f.path.empty()) continue;
    Output o;
    o.file = &f;
    o.target = replaced_target(f.path);
    outputs.push_back(std::move(o));
  }
  if (outputs.size() > kMaxPendingTempFiles)
    throw InputError("more than " + std::to_string(kMaxPendingTempFiles) + " outputs at once");
  // Every file is written in full before any is replaced: a failure (a full disk, a signal)
  // leaves all the old files as they were.
  for (auto& o : outputs)
    if (!o.target.empty()) stage(o);
  for (auto& o : outputs) {
    if (o.target.empty()) continue;
    if (::rename(o.tmp.c_str(), o.target.c_str()) != 0)
      throw IoError(o.file->path + ": cannot replace: " + errno_text(errno));
    o.pending->commit();
  }
  for (auto& o : outputs) {
    if (!o.target.empty()) continue;
    if (o.file->path == "-") {
      write_to_stdout(o.file->content);
    } else {
      write_into(o.file->path, resolve_output(o.file->path), o.file->content);
    }
  }
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace p2p

namespace p2p::file_io_hooks {
void (*after_temp_created)() = nullptr;
}  // namespace p2p::file_io_hooks
