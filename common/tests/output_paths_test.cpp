#include "common/output_paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace p2p {
namespace {

namespace fs = std::filesystem;

// The pure check over a made-up file system: path -> what stat would say.
struct FakeFiles {
  std::map<std::string, PathFacts> files;
  PathFacts operator()(const std::string& path) const {
    const auto it = files.find(path);
    if (it != files.end()) return it->second;
    PathFacts missing;
    missing.key = "new:" + path;
    return missing;
  }
};

PathFacts file(const std::string& key, const std::string& canonical, bool symlink = false) {
  PathFacts f;
  f.kind = PathFacts::Kind::kFile;
  f.key = key;
  f.canonical = canonical;
  f.is_symlink = symlink;
  return f;
}

std::string problem(const OutputRequest& r, const FakeFiles& fs) {
  const auto p = output_path_problem(r, fs);
  return p ? p->line : "";
}

TEST(OutputPathProblem, AnOutputNamingAnInputIsRefusedWhateverTheLink) {
  FakeFiles fs;
  fs.files["in.json"] = file("inode:1:10", "/d/in.json");
  fs.files["hard.json"] = file("inode:1:10", "/d/hard.json");
  fs.files["sym.json"] = file("inode:1:10", "/d/in.json", true);
  OutputRequest r;
  add_input(r, "--facts", "in.json");
  r.outputs = {{"--junit", "in.json"}};
  EXPECT_EQ(problem(r, fs),
            "--junit in.json: is the input in.json (--facts); refusing to overwrite an input");
  r.outputs = {{"--save-facts", "hard.json"}};
  EXPECT_EQ(problem(r, fs),
            "--save-facts hard.json: is a hard link to the input in.json "
            "(--facts); refusing to overwrite an input");
  r.outputs = {{"--jsonl", "sym.json"}};
  EXPECT_EQ(problem(r, fs),
            "--jsonl sym.json: is a symbolic link to the input in.json "
            "(--facts); refusing to overwrite an input");
  r.outputs = {{"--jsonl", "other.json"}};
  EXPECT_EQ(problem(r, fs), "");
}

TEST(OutputPathProblem, StandardOutputIsForOneOutputWhereOfferedAndFree) {
  const FakeFiles fs;
  OutputRequest r;
  r.outputs = {{"--junit", ""}};
  EXPECT_EQ(problem(r, fs), "--junit: the path is empty; give a file");
  r.outputs = {{"--junit", "-"}, {"--jsonl", "-"}};
  EXPECT_EQ(problem(r, fs),
            "--junit - and --jsonl -: at most one output may be standard output; give the other "
            "a file");
  r.outputs = {{"--junit", "-"}};
  r.stdout_owner = "--format json";
  EXPECT_EQ(problem(r, fs),
            "--junit -: standard output already carries --format json; give a file");
  r.stdout_owner.clear();
  EXPECT_EQ(problem(r, fs), "");
  EXPECT_TRUE(output_takes_stdout(r));
  r.outputs = {{"--json", "-", false}};
  EXPECT_EQ(problem(r, fs).rfind("--json -: standard output is not offered here", 0), 0u);
}

TEST(OutputPathProblem, TwoOutputsNeverShareAFile) {
  const FakeFiles fs;
  OutputRequest r;
  r.outputs = {{"--json", "x"}, {"--junit", "x"}};
  EXPECT_EQ(problem(r, fs), "--json and --junit both name x; give each output its own file");
}

TEST(OutputPathProblem, PlacesThatCannotTakeAFileAreBadInputOrIoErrors) {
  FakeFiles fs;
  fs.files["dir"].kind = PathFacts::Kind::kDirectory;
  fs.files["dir"].key = "inode:1:2";
  fs.files["nowhere/x"].directory_problem = "the directory nowhere does not exist";
  fs.files["nowhere/x"].key = "";
  fs.files["ro/x"].key = "new:ro/x";
  fs.files["ro/x"].write_problem = "Read-only file system";
  OutputRequest r;
  r.outputs = {{"--json", "dir"}};
  EXPECT_EQ(problem(r, fs), "--json dir: is a directory; give a file");
  r.outputs = {{"--json", "nowhere/x"}};
  EXPECT_EQ(problem(r, fs), "--json nowhere/x: the directory nowhere does not exist");
  EXPECT_FALSE(output_path_problem(r, fs)->io_error);
  r.outputs = {{"--json", "ro/x"}};
  EXPECT_EQ(problem(r, fs), "--json ro/x: cannot write: Read-only file system");
  EXPECT_TRUE(output_path_problem(r, fs)->io_error);
}

// The same with the real file system: stat, lstat, realpath, access.
class OutputPathsOnDisk : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  TempDir tmp_{"p2p_output_paths"};
  fs::path dir_{tmp_.path()};
};

TEST_F(OutputPathsOnDisk, SameFileHardLinkSymbolicLinkAndDanglingLinkAreSeen) {
  std::ofstream(path("in.json")) << "{}";
  fs::create_hard_link(path("in.json"), path("hard.json"));
  fs::create_symlink("in.json", path("sym.json"));
  fs::create_symlink("later.json", path("dangling.json"));
  OutputRequest r;
  add_input(r, "FILE", path("in.json"));
  for (const std::string& out :
       {path("in.json"), path("hard.json"), path("sym.json"), dir_.string() + "/./in.json",
        dir_.string() + "/../" + dir_.filename().string() + "/in.json"}) {
    r.outputs = {{"--json", out}};
    EXPECT_THROW(check_output_paths(r), InputError) << out;
  }
  r.outputs = {{"--json", path("dangling.json")}, {"--junit", path("later.json")}};
  EXPECT_THROW(check_output_paths(r), InputError);  // both land on later.json
  r.outputs = {{"--json", path("new.json")}};
  EXPECT_NO_THROW(check_output_paths(r));
  EXPECT_FALSE(fs::exists(path("new.json")));  // nothing is created by the check
}

TEST_F(OutputPathsOnDisk, AMissingDirectoryIsBadInputAndAnUnwritableOneAnIoError) {
  OutputRequest r;
  r.outputs = {{"--json", path("no/such/x.json")}};
  EXPECT_THROW(check_output_paths(r), InputError);
  r.outputs = {{"--json", dir_.string()}};
  EXPECT_THROW(check_output_paths(r), InputError);
  // A directory without write permission refuses everyone but root, and the check says so
  // before any work; sysfs takes no new file even from root, and the writer says so (exit 4).
  std::string unwritable = "/sys/p2pcheck-output.json";
  if (::geteuid() != 0) {
    fs::create_directory(path("ro"));
    fs::permissions(path("ro"), fs::perms::owner_read | fs::perms::owner_exec);
    unwritable = path("ro/x.json");
    r.outputs = {{"--json", unwritable}};
    EXPECT_THROW(check_output_paths(r), IoError);
  }
  try {
    write_text_file_atomically(unwritable, "{}\n");
    ADD_FAILURE() << unwritable << " was written";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(unwritable + ": cannot write: ", 0), 0u) << e.what();
  }
  EXPECT_FALSE(fs::exists(unwritable));
}

}  // namespace
}  // namespace p2p
