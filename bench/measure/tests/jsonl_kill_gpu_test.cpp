// `bench --jsonl FILE` killed with SIGKILL halfway (as a scheduler's timeout or the OOM killer
// would): every line in the file parses, it holds every figure seen before the kill, and it
// has no run_end line, which is how a reader tells a killed run from a finished one.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>

#include "bench/measure/no_gpu.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace {

struct Lines {
  int figures = 0;
  int total = 0;
  bool all_parse = true;
  bool run_end = false;
  std::string first_kind;
  std::string bad;
};

Lines read_lines(const std::string& path) {
  Lines out;
  std::istringstream in(p2p::try_read_text_file(path).value_or(""));
  std::string line;
  while (std::getline(in, line)) {
    ++out.total;
    try {
      const auto j = nlohmann::json::parse(line);
      const std::string kind = j.at("kind");
      if (out.first_kind.empty()) out.first_kind = kind;
      out.figures += kind == "bandwidth" || kind == "latency";
      out.run_end = out.run_end || kind == "run_end";
    } catch (const std::exception&) {
      out.all_parse = false;
      out.bad = line;
    }
  }
  return out;
}

TEST(BenchJsonlGpu, KilledHalfwayKeepsEveryFigureMeasuredBefore) {
  const auto why = p2p::bench::no_gpu_reason(p2p::bench::probe_cuda());
  if (why) GTEST_SKIP() << "no usable GPU: " << *why;
  const p2p::TempDir tmp("p2p_jsonl_kill");
  const std::string path = tmp.file("run.jsonl");

  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group: the kill reaches everything it started
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, STDOUT_FILENO);
    ::dup2(devnull, STDERR_FILENO);
    ::execl(P2PCHECK_EXE, "p2pcheck", "bench", "--sizes", "4K,64M,256M", "--samples", "3",
            "--jsonl", path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid, pid);

  // Wait for a few figures, then kill without warning.
  int seen = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (std::chrono::steady_clock::now() < deadline) {
    seen = read_lines(path).figures;
    if (seen >= 3) break;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid)
      FAIL() << "bench ended before 3 figures, status " << status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_GE(seen, 3) << "no 3 figures within 180 s";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;

  const Lines after = read_lines(path);
  EXPECT_TRUE(after.all_parse) << "a line that does not parse: " << after.bad;
  EXPECT_GE(after.figures, seen) << "every figure seen before the kill is still there";
  EXPECT_EQ(after.first_kind, "run_start");
  EXPECT_FALSE(after.run_end) << "a killed run cannot have said it ended";
}

}  // namespace
