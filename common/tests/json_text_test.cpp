// Invalid UTF-8 in a collected string: escaped losslessly instead of failing the whole output.
#include "common/json_text.hpp"

#include <gtest/gtest.h>

#include "common/file_io.hpp"

namespace {

using p2p::escape_invalid_utf8;
using p2p::json_text;
using p2p::parse_json_text;
using p2p::unescape_bytes;

TEST(JsonText, ValidUtf8IsUnchanged) {
  for (const std::string s : {"", "plain", "NVIDIA H200",
                              "Gr\xC3\xBC\xC3\x9F"
                              "e \xE2\x82\xAC \xF0\x9F\x98\x80",
                              "C:\\path\\n"})
    EXPECT_EQ(escape_invalid_utf8(s), s);
  const nlohmann::json j = {{"name", "H200"}, {"list", {1, "two"}}};
  EXPECT_EQ(json_text(j), j.dump(2));
}

TEST(JsonText, InvalidBytesBecomeHexEscapesAndComeBack) {
  const std::string raw =
      std::string("0") + '\xFF' + "a" + '\xC3' + "\xE2\x82" + "\xED\xA0\x80" + "\xC0\xAF";
  const std::string escaped = escape_invalid_utf8(raw);
  EXPECT_EQ(escaped, "0\\xFFa\\xC3\\xE2\\x82\\xED\\xA0\\x80\\xC0\\xAF");
  EXPECT_EQ(unescape_bytes(escaped), raw);
}

TEST(JsonText, ALiteralEscapeInTheOriginalStaysDistinct) {
  const std::string raw = std::string("\\x41 and ") + '\xFF';
  const std::string escaped = escape_invalid_utf8(raw);
  EXPECT_EQ(escaped, "\\x5Cx41 and \\xFF");
  EXPECT_EQ(unescape_bytes(escaped), raw);
  EXPECT_EQ(unescape_bytes(escape_invalid_utf8("\\x41")), "\\x41")
      << "escaped even without an invalid byte";
}

TEST(JsonText, ADocumentWithInvalidStringsAndKeysIsWrittenAndReadsBack) {
  nlohmann::json j;
  j["env"][std::string("BAD") + '\xFE'] = std::string("v") + '\xFF';
  j["gpus"] = {std::string("Fake ") + '\x80' + "GPU"};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error) << "what nlohmann alone does";
  const nlohmann::json back = nlohmann::json::parse(json_text(j));
  EXPECT_EQ(back["env"]["BAD\\xFE"], "v\\xFF");
  EXPECT_EQ(unescape_bytes(back["gpus"][0].get<std::string>()),
            std::string("Fake ") + '\x80' + "GPU");
}

TEST(JsonText, ParseJsonTextGivesBackTheBytesJsonTextEscaped) {
  nlohmann::json j;
  j["env"][std::string("BAD") + '\xFE'] = std::string("v") + '\xFF';
  j["literal"] = "\\x41 stays text";
  j["plain"] = {1, "two", nullptr};
  const std::string written = json_text(j);
  const nlohmann::json back = parse_json_text(written, "doc.json");
  EXPECT_EQ(back, j);
  EXPECT_EQ(json_text(back), written) << "written again: the same text";
  EXPECT_EQ(parse_json_text("{\"a\": \"\\\\x\"}", "short.json")["a"], "\\x")
      << "a backslash and x without two hex digits is text";
}

}  // namespace

namespace {

// A document whose largest array is written item by item is the text of the whole document,
// whatever the indent, the item count, or the bytes its strings hold.
TEST(JsonTextWithArray, IsTheTextOfTheWholeDocument) {
  const auto item = [](std::size_t i) {
    return nlohmann::json{{"gpus", {i, i + 1}},
                          {"detail", i == 1 ? std::string("bad \xff byte") : "line\nnext"},
                          {"nested", {{"path", "PIX"}, {"none", nullptr}}}};
  };
  for (const int indent : {-1, 0, 2, 4})
    for (const std::size_t count : {0u, 1u, 3u}) {
      const nlohmann::json head = {{"schema", "p2pcheck.vm_compare"}, {"a", 1}, {"z", {1, 2}}};
      nlohmann::json whole = head;
      whole["pairs"] = nlohmann::json::array();
      for (std::size_t i = 0; i < count; ++i) whole["pairs"].push_back(item(i));
      EXPECT_EQ(p2p::json_text_with_array(head, "pairs", count, item, indent),
                json_text(whole, indent))
          << "indent " << indent << ", " << count << " items";
    }
}

}  // namespace
