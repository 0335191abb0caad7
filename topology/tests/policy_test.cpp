#include "topology/policy.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace p2p::topo {
namespace {

using nlohmann::json;

TEST(Policy, ParsesEveryKey) {
  const auto p =
      policy_from_json(json::parse(R"({"min_gpus": 8, "max_path": "NODE", "forbid": ["SYS", "NV"],
                      "min_link": {"gen": 4, "width": 16}, "require_p2p": true})"),
                       "policy.json");
  EXPECT_EQ(p.min_gpus, 8);
  EXPECT_EQ(p.max_path, PathClass::kNode);
  EXPECT_EQ(p.forbid, (std::vector<PathClass>{PathClass::kSys, PathClass::kNvLink}));
  ASSERT_TRUE(p.min_link);
  EXPECT_EQ(p.min_link->gen, 4);
  EXPECT_EQ(p.min_link->width, 16);
  EXPECT_TRUE(p.require_p2p);
}

TEST(Policy, EmptyObjectChecksNothing) {
  const auto p = policy_from_json(json::object(), "policy.json");
  EXPECT_FALSE(p.min_gpus);
  EXPECT_FALSE(p.max_path);
  EXPECT_TRUE(p.forbid.empty());
  EXPECT_FALSE(p.min_link);
  EXPECT_FALSE(p.require_p2p);
}

TEST(Policy, RoundTripsThroughJson) {
  const auto p = policy_from_json(
      json::parse(R"({"max_path": "PXB", "min_link": {"gen": 5, "width": 8}})"), "p");
  const auto back = policy_from_json(json(p), "p");
  EXPECT_EQ(json(back), json(p));
  EXPECT_EQ(back.max_path, PathClass::kPxb);
}

// Every error is one line: "<file>: <key path>: <problem>" ("<file>: <problem>" for the
// document itself).
void expect_error(const std::string& text, const std::string& key, const std::string& problem) {
  try {
    policy_from_json(json::parse(text), "policy.json");
    FAIL() << "accepted " << text;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("policy.json: " + (key.empty() ? "" : key + ": "), 0), 0u) << what;
    EXPECT_NE(what.find(problem), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(Policy, UnknownKeysAreErrorsNamingTheKey) {
  expect_error(
      R"({"max_hops": 2})", "",
      "unknown key 'max_hops' (known: min_gpus, max_path, forbid, min_link, require_p2p, require_cliques)");
  expect_error(R"({"min_link": {"gen": 4, "lanes": 16}})", "min_link",
               "unknown key 'lanes' (known: gen, width)");
}

TEST(Policy, WrongTypesAreErrorsNamingTheKey) {
  expect_error(R"({"min_gpus": "8"})", "min_gpus", "expected an integer 1..4096, got \"8\"");
  expect_error(R"({"min_gpus": 8.5})", "min_gpus", "expected an integer");
  expect_error(R"({"min_gpus": 0})", "min_gpus", "expected an integer");
  expect_error(R"({"max_path": "FAST"})", "max_path", "expected one of \"NV\", \"PIX\"");
  expect_error(R"({"max_path": "X"})", "max_path", "got \"X\"");
  expect_error(R"({"max_path": "NV4"})", "max_path", "got \"NV4\"");
  expect_error(R"({"max_path": 3})", "max_path", "got 3");
  expect_error(R"({"forbid": "SYS"})", "forbid", "expected a list of classes");
  expect_error(R"({"forbid": ["SYS", "sys"]})", "forbid[1]", "got \"sys\"");
  expect_error(R"({"min_link": 4})", "min_link", "expected {\"gen\"");
  expect_error(R"({"min_link": {"gen": 4}})", "min_link", "needs both \"gen\" and \"width\"");
  expect_error(R"({"min_link": {"gen": 7, "width": 16}})", "min_link.gen",
               "expected an integer 1..6, got 7");
  expect_error(R"({"min_link": {"gen": 4, "width": "x16"}})", "min_link.width", "got \"x16\"");
  expect_error(R"({"require_p2p": "yes"})", "require_p2p", "expected true or false, got \"yes\"");
}

// A value holding bytes that are not UTF-8 (read back from the `\xNN` p2pcheck writes for them)
// is named in the one-line error, not a failure to print it.
TEST(Policy, AValueWithBytesThatAreNotUtf8IsNamedInTheError) {
  for (const char* text : {R"({"max_path": "\\xFF"})", R"({"min_gpus": "\\xFE\\xFF"})"}) {
    try {
      policy_from_json(parse_json_text(text, "policy.json"), "policy.json");
      ADD_FAILURE() << text << " must be refused";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("got \"\xEF\xBF\xBD"), std::string::npos) << e.what();
    }
  }
}

TEST(Policy, NonObjectIsAnError) {
  EXPECT_THROW(policy_from_json(json::parse("[1, 2]"), "policy.json"), InputError);
}

}  // namespace
}  // namespace p2p::topo
