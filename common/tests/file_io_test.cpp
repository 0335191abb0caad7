#include "common/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/file_io_hooks.hpp"
#include "common/pending_temp_file.hpp"
#include "common/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

class FileIo : public ::testing::Test {
 protected:
  p2p::TempDir tmp_{"p2p_file_io"};
  fs::path dir_{tmp_.path()};
};

TEST_F(FileIo, MissingFileNamesPathAndReason) {
  const std::string path = (dir_ / "absent.json").string();
  try {
    p2p::read_text_file(path);
    FAIL() << "expected InputError";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot read: No such file or directory");
  }
  EXPECT_FALSE(p2p::try_read_text_file(path).has_value());
}

TEST_F(FileIo, MalformedJsonIsOneLineNamingTheFile) {
  const std::string path = (dir_ / "bad.json").string();
  std::ofstream(path) << "{\"a\": [1, 2,}";
  try {
    p2p::read_json_file(path);
    FAIL() << "expected InputError";
  } catch (const p2p::InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": not valid JSON: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST_F(FileIo, AtomicWriteReplacesAndLeavesNoTemporaries) {
  const std::string path = (dir_ / "out.json").string();
  p2p::write_text_file_atomically(path, "first");
  p2p::write_text_file_atomically(path, "second");
  EXPECT_EQ(p2p::read_text_file(path), "second");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(FileIo, AnEmptyPathGivenAloneIsRefused) {
  EXPECT_THROW(p2p::write_text_file_atomically("", "x"), p2p::InputError);
}

TEST_F(FileIo, AtomicWriteIntoMissingDirectoryFailsWithoutResidue) {
  const std::string path = (dir_ / "no" / "such" / "out.json").string();
  EXPECT_THROW(p2p::write_text_file_atomically(path, "x"), p2p::InputError);
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(FileIo, FailedRenameLeavesTargetAndNoTemporary) {
  // A directory in the way makes rename() fail even for root, after the temp file was written.
  const fs::path target = dir_ / "occupied";
  fs::create_directories(target / "child");
  EXPECT_THROW(p2p::write_text_file_atomically(target.string(), "new"), p2p::InputError);
  EXPECT_TRUE(fs::is_directory(target / "child"));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1) << "temporary file left behind";
}

// Inputs that are not files: a directory, a device that never ends, a FIFO nobody writes to.
// Each is an error naming the path, or (for a probe) an empty read; none hangs or fills memory.
TEST_F(FileIo, DirectoriesDevicesAndSilentFifosAreRefusedNotReadForever) {
  const std::string dir = dir_.string();
  try {
    p2p::read_text_file(dir);
    FAIL() << "a directory was read";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir + ": is a directory, not a file");
  }
  try {
    p2p::read_text_file("/dev/zero");
    FAIL() << "/dev/zero was read";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/zero: is not a regular file or a pipe");
  }
  EXPECT_FALSE(p2p::try_read_text_file("/dev/zero").has_value());
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // No writer: the probe reader does not wait (the input reader waits 30 s for one, then says so).
  EXPECT_EQ(p2p::try_read_text_file(fifo).value_or("?"), "");
}

TEST_F(FileIo, InputsLargerThanTheCapAreRefused) {
  const std::string path = (dir_ / "big.txt").string();
  std::ofstream(path) << std::string(3 << 20, 'x');
  EXPECT_EQ(p2p::read_text_file(path).size(), 3u << 20);
  try {
    p2p::read_text_file(path, 1 << 20);
    FAIL() << "3 MiB read under a 1 MiB cap";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": larger than 1 MiB; not an input p2pcheck reads");
  }
}

TEST_F(FileIo, DeepNestingAndHugeNumbersAreBadInputNotACrash) {
  const std::string deep = (dir_ / "deep.json").string();
  std::ofstream(deep) << std::string(100000, '[') << std::string(100000, ']');
  try {
    p2p::read_json_file(deep);
    FAIL() << "100000 levels were accepted";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              deep + ": not valid JSON: line 1: nested deeper than 128 levels");
  }
  const std::string fine = (dir_ / "fine.json").string();
  std::ofstream(fine) << std::string(128, '[') << std::string(128, ']');
  EXPECT_NO_THROW(p2p::read_json_file(fine));
  std::ofstream(fine) << std::string(129, '[') << std::string(129, ']');
  EXPECT_THROW(p2p::read_json_file(fine), p2p::InputError);
  // Brackets inside strings (escaped quotes included) are text, not nesting.
  std::ofstream(fine) << "[\"\\\"" << std::string(1000, '[') << "\", \"" << std::string(1000, '{')
                      << "\"]";
  EXPECT_EQ(p2p::read_json_file(fine).size(), 2u);
  const std::string huge = (dir_ / "huge.json").string();
  std::ofstream(huge) << "{\"bytes\": 1e999}";
  try {
    p2p::read_json_file(huge);
    FAIL() << "1e999 was accepted";
  } catch (const p2p::InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(huge + ": not valid JSON: ", 0), 0u) << what;
    EXPECT_NE(what.find("1e999"), std::string::npos) << what;
  }
}

// As root, an output path of /dev/null must never become a regular file: a device is written
// into, as a shell's `>` would, never replaced; /dev/full says the disk is full (exit 4, naming
// the path); a directory is refused. A temporary name planted as a link must not redirect the
// write.
TEST_F(FileIo, AtomicWriteWritesIntoDevicesAndFollowsLinksToTheirTarget) {
  p2p::write_text_file_atomically("/dev/null", "x");
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  try {
    p2p::write_text_file_atomically("/dev/full", "x");
    FAIL() << "/dev/full took the write";
  } catch (const p2p::IoError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/full: write failed: No space left on device");
  }
  EXPECT_THROW(p2p::write_text_file_atomically(dir_.string(), "x"), p2p::InputError);

  const fs::path real = dir_ / "real.json", link = dir_ / "link.json";
  std::ofstream(real) << "old";
  fs::create_symlink("real.json", link);
  p2p::write_text_file_atomically(link.string(), "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(p2p::read_text_file(real.string()), "new");
  EXPECT_TRUE(p2p::same_file(link.string(), real.string()));

  // The old scheme's predictable name, planted as a link to a file that must stay untouched.
  const fs::path victim = dir_ / "victim", out = dir_ / "out.json";
  std::ofstream(victim) << "keep";
  fs::create_symlink(victim, dir_ / ("out.json.tmp." + std::to_string(getpid())));
  p2p::write_text_file_atomically(out.string(), "result");
  EXPECT_EQ(p2p::read_text_file(victim.string()), "keep");
  EXPECT_EQ(p2p::read_text_file(out.string()), "result");
  EXPECT_FALSE(p2p::same_file(out.string(), victim.string()));
}

// A write that fails half way (here: past the file size limit, as a full disk fails) is an
// I/O error naming the file with the errno text, and leaves neither the target nor a temporary.
TEST_F(FileIo, AFailedWriteIsAnIoErrorAndLeavesNoTemporary) {
  const std::string path = (dir_ / "out.json").string();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      p2p::write_text_file_atomically(path, std::string(1 << 20, 'x'));
      std::_Exit(10);
    } catch (const p2p::IoError& e) {
      std::_Exit(std::string(e.what()) == path + ": write failed: File too large" ? 0 : 11);
    } catch (...) {
      std::_Exit(12);
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(fs::is_empty(dir_)) << "a temporary or half-written file was left";
}

// The outputs of one command are replaced together or not at all: a --junit that cannot be
// written (its file system full: here a file size limit) leaves the old --json in place, never a
// new --json beside an old --junit; written, both are new.
TEST_F(FileIo, OutputsOfOneCommandAreReplacedTogetherOrNotAtAll) {
  const std::string json = (dir_ / "run.json").string(), junit = (dir_ / "run.xml").string();
  p2p::write_text_files_atomically({{json, "old json"}, {junit, "old junit"}});
  EXPECT_EQ(p2p::read_text_file(json), "old json");
  EXPECT_EQ(p2p::read_text_file(junit), "old junit");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      p2p::write_text_files_atomically(
          {{json, "new json"}, {"", "skipped"}, {junit, std::string(1 << 20, 'x')}});
      std::_Exit(10);
    } catch (const p2p::IoError& e) {
      std::_Exit(std::string(e.what()) == junit + ": write failed: File too large" ? 0 : 11);
    } catch (...) {
      std::_Exit(12);
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(p2p::read_text_file(json), "old json");
  EXPECT_EQ(p2p::read_text_file(junit), "old junit");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 2) << "a temporary file was left behind";
  // A second output in a directory that does not exist: the first is not replaced either.
  const std::string lost = (dir_ / "no" / "such" / "run.xml").string();
  EXPECT_THROW(p2p::write_text_files_atomically({{json, "new json"}, {lost, "x"}}),
               p2p::InputError);
  EXPECT_EQ(p2p::read_text_file(json), "old json");
  p2p::write_text_files_atomically({{json, "new json"}, {junit, "new junit"}});
  EXPECT_EQ(p2p::read_text_file(json), "new json");
  EXPECT_EQ(p2p::read_text_file(junit), "new junit");
}

// A signal that ends the process while the temporary file exists (SIGTERM from a scheduler)
// removes it first; the process still ends by that signal.
TEST_F(FileIo, SigtermDuringAnAtomicWriteRemovesTheTemporaryFile) {
  const std::string tmp = (dir_ / ".out.json.tmp.ABCDEF").string();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::ofstream(tmp) << "half";
    p2p::PendingTempFile pending(tmp);
    ::raise(SIGTERM);
    std::_Exit(10);  // not reached: SIGTERM ends the process
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(fs::exists(tmp));
}

// A SIGTERM that arrives in the instant between the temporary file's creation and its being held
// for removal waits (the ending signals are blocked there) and then removes it: the process ends
// by the signal with no file left. Unblocked, it ended the process with the file behind.
TEST_F(FileIo, ASigtermJustAfterTheTemporaryIsCreatedStillRemovesIt) {
  const std::string out = (dir_ / "out.json").string();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    p2p::file_io_hooks::after_temp_created = [] { ::kill(::getpid(), SIGTERM); };
    p2p::write_text_file_atomically(out, "{}");
    std::_Exit(10);  // not reached: the pending SIGTERM ends the process once unblocked
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(dir_)) << "the temporary file was left behind";
}

// Where another handler takes the signal (bench's first SIGTERM asks the run to stop), the write
// goes on and its file stays until it is renamed.
TEST_F(FileIo, ASignalAnotherHandlerTakesLeavesTheWriteToFinish) {
  const std::string tmp = (dir_ / ".out.json.tmp.GHIJKL").string();
  static volatile sig_atomic_t seen = 0;
  struct sigaction sa {
  }, old{};
  sa.sa_handler = [](int) { seen = 1; };
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGTERM, &sa, &old), 0);
  std::ofstream(tmp) << "half";
  {
    p2p::PendingTempFile pending(tmp);
    ::raise(SIGTERM);
    EXPECT_EQ(seen, 1);
    EXPECT_TRUE(fs::exists(tmp));
    pending.commit();
  }
  EXPECT_TRUE(fs::exists(tmp));  // committed: it is the caller's now
  sigaction(SIGTERM, &old, nullptr);
  {
    p2p::PendingTempFile pending(tmp);  // not committed: removed when the scope ends
  }
  EXPECT_FALSE(fs::exists(tmp));
}

// Text p2pcheck wrote itself that does not parse is a fault of the run (exit 4), not bad input.
TEST(ParseOwnJson, ParsesAndNamesWhatWasReadWhenItCannot) {
  EXPECT_EQ(p2p::parse_own_json(R"({"rank": 3})", "rank line").at("rank"), 3);
  try {
    p2p::parse_own_json(R"({"rank": )", "MPI process 2 report");
    ADD_FAILURE() << "a cut line parsed";
  } catch (const p2p::InputError&) {
    ADD_FAILURE() << "our own text reported as bad input";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("MPI process 2 report: not valid JSON: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.find("json.exception"), std::string::npos) << what;
  }
}

TEST(ApiError, NamesApiCodeCallAndPlace) {
  const p2p::ApiError e("CUDA", 2, "cudaErrorMemoryAllocation: out of memory",
                        p2p::CallSite{"cudaMalloc(&p, n)", "bench/x.cu", 42});
  EXPECT_STREQ(
      e.what(),
      "CUDA error 2 (cudaErrorMemoryAllocation: out of memory) in `cudaMalloc(&p, n)` at bench/x.cu:42");
  EXPECT_EQ(e.code, 2);
}

TEST(PosixCheck, ThrowsWithErrnoText) {
  errno = 0;
  try {
    P2P_CHECK_POSIX(::close(-1));
    FAIL() << "expected ApiError";
  } catch (const p2p::ApiError& e) {
    EXPECT_EQ(e.code, EBADF);
    EXPECT_NE(std::string(e.what()).find("::close(-1)"), std::string::npos);
  }
}

}  // namespace
