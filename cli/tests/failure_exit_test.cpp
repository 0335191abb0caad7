// How a command that threw ends: each kind of failure its one line and exit code.
#include "cli/failure_exit.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/exit_codes.hpp"

namespace {

using p2p::cli::exit_for_failure;

struct Ending {
  int code;
  std::string line;
};

template <typename E>
Ending ending(E e, const std::vector<std::string>& args = {}) {
  std::ostringstream err;
  const int code = exit_for_failure(std::make_exception_ptr(e), args, err);
  return {code, err.str()};
}

TEST(FailureExit, EachKindHasItsCode) {
  EXPECT_EQ(ending(p2p::InputError("a.json: bad")).code, p2p::kExitBadInput);
  EXPECT_EQ(ending(p2p::NoGpuError("cuInit: 3")).code, p2p::kExitNoGpu);
  EXPECT_EQ(ending(p2p::HangError("copy 0->1")).code, p2p::kExitHang);
  EXPECT_EQ(ending(p2p::BusyError("gpu0")).code, p2p::kExitBusy);
  EXPECT_EQ(ending(p2p::IoError("out.json: disk full")).code, p2p::kExitRuntime);
  EXPECT_EQ(ending(std::logic_error("x")).code, p2p::kExitRuntime);
  EXPECT_EQ(ending(42).code, p2p::kExitRuntime);
}

TEST(FailureExit, AMessageWithANewlineOrEscapeStaysOneLine) {
  const Ending e = ending(p2p::InputError("bad\nname\x1b[31m"));
  EXPECT_EQ(e.line, "p2pcheck: error: bad\\nname\\x1b[31m\n");
}

// Memory that runs out while a command holds its input is the input's size: the files given are
// named, exit 2, never a bare std::bad_alloc.
TEST(FailureExit, OutOfMemoryNamesTheFilesGivenAndIsBadInput) {
  const std::string file = ::testing::TempDir() + "failure-exit-host.txt";
  std::ofstream(file) << "GPU0\n";
  const Ending e = ending(std::bad_alloc(), {"vm", "compare", "--format", "json", file, file});
  EXPECT_EQ(e.code, p2p::kExitBadInput);
  EXPECT_EQ(e.line, "p2pcheck: error: " + file + ", " + file +
                        ": out of memory holding what the input describes (its size ceilings: "
                        "docs/inputs-and-outputs.md, Limits)\n");
  std::remove(file.c_str());
}

TEST(FailureExit, OutOfMemoryWithNoFileGivenIsTheHostsMemory) {
  const Ending e = ending(std::bad_alloc(), {"bench", "--sizes", "1G", "/nonexistent/a.json"});
  EXPECT_EQ(e.code, p2p::kExitRuntime);
  EXPECT_EQ(e.line, "p2pcheck: error: out of memory\n");
}

}  // namespace
