#include "common/temp_dir.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"

namespace fs = std::filesystem;

namespace {

TEST(TempDir, APrivateDirectoryRemovedWithItsContents) {
  std::string path;
  {
    const p2p::TempDir dir("p2p_temp_dir_test");
    path = dir.path();
    EXPECT_EQ(fs::path(path).filename().string().rfind("p2p_temp_dir_test-", 0), 0u) << path;
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0700u);  // mkdtemp's: nobody else reads what a run leaves there
    fs::create_directories(dir.file("a/b"));
    std::ofstream(dir.file("a/b/c.txt")) << "x";
    EXPECT_EQ(dir.file("a/b/c.txt"), path + "/a/b/c.txt");
    const p2p::TempDir other("p2p_temp_dir_test");
    EXPECT_NE(other.path(), path);
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(TempDir, UnderTmpdirAndNamingTheCallWhenItCannotBeMade) {
  const p2p::TempDir parent("p2p_temp_dir_parent");
  const char* saved = std::getenv("TMPDIR");
  const std::string restore = saved ? saved : "";
  ::setenv("TMPDIR", parent.path().c_str(), 1);
  {
    const p2p::TempDir inside("x");
    EXPECT_EQ(fs::path(inside.path()).parent_path().string(), parent.path());
  }
  ::setenv("TMPDIR", parent.file("missing").c_str(), 1);
  try {
    p2p::TempDir nowhere("x");
    ADD_FAILURE() << "made " << nowhere.path();
  } catch (const p2p::ApiError& e) {
    EXPECT_NE(std::string(e.what()).find("mkdtemp"), std::string::npos) << e.what();
  }
  if (saved) {
    ::setenv("TMPDIR", restore.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
}

}  // namespace
