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

TEST(JsonLines, TruncatesAnOldFileAndRefusesADirectory) {
  const TempDir tmp("p2p_jsonl");
  const std::string path = tmp.file("lines.jsonl");
  write_text_file_atomically(path, "old\nlines\n");
  { JsonLines out(path); }
  EXPECT_EQ(read_text_file(path), "");
  EXPECT_THROW(JsonLines("/tmp"), InputError);
}

}  // namespace
}  // namespace p2p
