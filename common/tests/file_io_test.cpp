#include "common/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"

namespace fs = std::filesystem;

namespace {

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/p2p_file_io_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(TempDir, MissingFileNamesPathAndReason) {
  const std::string path = (dir_ / "absent.json").string();
  try {
    p2p::read_text_file(path);
    FAIL() << "expected InputError";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot read: No such file or directory");
  }
  EXPECT_FALSE(p2p::try_read_text_file(path).has_value());
}

TEST_F(TempDir, MalformedJsonIsOneLineNamingTheFile) {
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

TEST_F(TempDir, AtomicWriteReplacesAndLeavesNoTemporaries) {
  const std::string path = (dir_ / "out.json").string();
  p2p::write_text_file_atomically(path, "first");
  p2p::write_text_file_atomically(path, "second");
  EXPECT_EQ(p2p::read_text_file(path), "second");
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(TempDir, AtomicWriteIntoMissingDirectoryFailsWithoutResidue) {
  const std::string path = (dir_ / "no" / "such" / "out.json").string();
  EXPECT_THROW(p2p::write_text_file_atomically(path, "x"), p2p::InputError);
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(TempDir, FailedRenameLeavesTargetAndNoTemporary) {
  // A directory in the way makes rename() fail even for root, after the temp file was written.
  const fs::path target = dir_ / "occupied";
  fs::create_directories(target / "child");
  EXPECT_THROW(p2p::write_text_file_atomically(target.string(), "new"), p2p::InputError);
  EXPECT_TRUE(fs::is_directory(target / "child"));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1) << "temporary file left behind";
}

TEST(ApiError, NamesApiCodeCallAndPlace) {
  const p2p::ApiError e("CUDA", 2, "cudaErrorMemoryAllocation: out of memory",
                        p2p::CallSite{"cudaMalloc(&p, n)", "bench/x.cu", 42});
  EXPECT_STREQ(e.what(),
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
