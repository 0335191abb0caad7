// JSON lines: every line is complete JSON the moment write() returns, with no buffer to lose.
#include "common/json_lines.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace p2p {
namespace {

TEST(JsonLines, EachLineIsOnDiskWhenWriteReturns) {
  const TempDir tmp("p2p_jsonl");
  const std::string path = tmp.file("lines.jsonl");
  {
    JsonLines out(path);
    out.write({{"n", 1}});
    // Read by another handle while the writer is still open: nothing waits in a buffer.
    EXPECT_EQ(read_text_file(path), "{\"n\":1}\n");
    out.write({{"text", "bad \xFF utf-8"}, {"nested", {{"a", nullptr}}}});
  }
  std::istringstream in(read_text_file(path));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
    ++n;
  }
  EXPECT_EQ(n, 2);
}

// An old file is replaced by the first line, not before: a run that fails on its inputs first
// leaves it as it was. A directory, a full disk and a closed pipe are errors naming the path.
TEST(JsonLines, ReplacesAnOldFileWithTheFirstLineOnly) {
  const TempDir tmp("p2p_jsonl");
  const std::string path = tmp.file("lines.jsonl");
  write_text_file_atomically(path, "old\nlines\n");
  {
    JsonLines out(path);
    EXPECT_EQ(read_text_file(path), "old\nlines\n");
    out.write({{"n", 1}});
    EXPECT_EQ(read_text_file(path), "{\"n\":1}\n");
  }
  JsonLines dir("/tmp");
  EXPECT_THROW(dir.write({{"n", 1}}), InputError);
  EXPECT_THROW(JsonLines(""), InputError);
  JsonLines full("/dev/full");
  try {
    full.write({{"n", 1}});
    ADD_FAILURE() << "/dev/full took the line";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/full: write failed: No space left on device");
  }
}

}  // namespace
}  // namespace p2p
