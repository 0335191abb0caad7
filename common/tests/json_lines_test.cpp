// JSON lines: every line is complete JSON the moment write() returns, with no buffer to lose.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_lines.hpp"

namespace p2p {
namespace {

std::string temp_path() {
  char tmpl[] = "/tmp/p2p_jsonl_XXXXXX";
  const int fd = ::mkstemp(tmpl);
  ::close(fd);
  return tmpl;
}

TEST(JsonLines, EachLineIsOnDiskWhenWriteReturns) {
  const std::string path = temp_path();
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
  ::unlink(path.c_str());
}

TEST(JsonLines, TruncatesAnOldFileAndRefusesADirectory) {
  const std::string path = temp_path();
  write_text_file_atomically(path, "old\nlines\n");
  { JsonLines out(path); }
  EXPECT_EQ(read_text_file(path), "");
  ::unlink(path.c_str());
  EXPECT_THROW(JsonLines("/tmp"), InputError);
}

}  // namespace
}  // namespace p2p
