// The shape check every JSON input passes before it is parsed: depth and keys given twice.
#include "common/json_shape.hpp"

#include <gtest/gtest.h>

#include <string>

namespace p2p {
namespace {

std::string problem(const std::string& text) {
  const auto p = json_shape_problem(text, 4);
  return p ? std::to_string(p->line) + ": " + p->what : "";
}

TEST(JsonShape, AKeyGivenTwiceInOneObjectIsNamedWithItsLine) {
  EXPECT_EQ(problem("{\"a\": 1,\n \"b\": 2,\n \"a\": 3}"), "3: key \"a\" given twice");
  EXPECT_EQ(problem("{\"outer\": {\"k\": 1, \"k\": 2}}"), "1: key \"k\" given twice");
}

TEST(JsonShape, EqualKeysInDifferentObjectsAndStringValuesAreFine) {
  EXPECT_EQ(problem("{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}"), "");
  EXPECT_EQ(problem("[{\"a\": 1}, {\"a\": 1}]"), "");
  // A value equal to a key, and a key inside a string, are not keys.
  EXPECT_EQ(problem("{\"a\": \"a\", \"b\": \"{\\\"b\\\": 1, \\\"b\\\": 2}\"}"), "");
  EXPECT_EQ(problem("{\"a\": [\"a\", \"a\"]}"), "");
}

TEST(JsonShape, EscapedQuotesDoNotEndAKey) {
  EXPECT_EQ(problem("{\"a\\\"\": 1, \"a\": 2}"), "");
  EXPECT_EQ(problem("{\"a\\\"\": 1, \"a\\\"\": 2}"), "1: key \"a\\\"\" given twice");
}

TEST(JsonShape, NestingPastTheLimitIsNamed) {
  EXPECT_EQ(problem("[[[[]]]]"), "");
  EXPECT_EQ(problem("[[[[\n[]]]]]"), "2: nested deeper than 4 levels");
}

// Linear in the text: 200,000 keys of one object and 200,000 small objects (a quadratic scan
// would run past the test's timeout).
TEST(JsonShape, ManyKeysAndManyObjectsAreOnePass) {
  std::string keys = "{";
  for (int i = 0; i < 200000; ++i) keys += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  keys += "}";
  EXPECT_FALSE(json_shape_problem(keys, 4));
  std::string objects = "[";
  for (int i = 0; i < 200000; ++i) objects += i ? ",{\"a\":1,\"b\":2}" : "{\"a\":1,\"b\":2}";
  objects += "]";
  EXPECT_FALSE(json_shape_problem(objects, 4));
}

}  // namespace
}  // namespace p2p
