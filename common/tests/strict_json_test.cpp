// The strict reader for hand-written JSON files (common/strict_json.hpp): each problem is one
// line naming the file and the key path.
#include "common/strict_json.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace p2p {
namespace {

using nlohmann::json;

struct Link {
  int gen = 0;
  std::optional<int> width;
};

struct Settings {
  std::string name;
  Link link;
  std::optional<bool> verbose;  // optional key
};

Settings read_settings(const json& j) {
  StrictReader in(j, "");
  Settings s;
  in.get("name", s.name);
  StrictReader link(in.at("link"), in.path("link"));
  link.get("gen", s.link.gen);
  link.opt("width", s.link.width);
  link.finish();
  in.opt_later("verbose", s.verbose);
  in.finish();
  return s;
}

class StrictJsonFile : public ::testing::Test {
 protected:
  // The one-line error reading `text` from a file gives ("" when it reads).
  std::string error_reading(const std::string& text) {
    const std::string path = dir_.file("settings.json");
    write_text_file_atomically(path, text);
    try {
      read_back_ = load_json_file(path, read_settings);
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
      return what.substr(path.size() + 2);
    }
    return "";
  }

  TempDir dir_{"strict-json"};
  Settings read_back_;
};

TEST_F(StrictJsonFile, ReadsEveryKeyItWasAskedFor) {
  EXPECT_EQ(error_reading(R"({"name": "a", "link": {"gen": 5, "width": null}, "verbose": true})"),
            "");
  EXPECT_EQ(read_back_.name, "a");
  EXPECT_EQ(read_back_.link.gen, 5);
  EXPECT_FALSE(read_back_.link.width.has_value());
  EXPECT_EQ(read_back_.verbose, std::optional<bool>(true));
  // An optional key may be left out.
  EXPECT_EQ(error_reading(R"({"name": "b", "link": {"gen": 4, "width": 16}})"), "");
  EXPECT_EQ(read_back_.link.width, std::optional<int>(16));
  EXPECT_FALSE(read_back_.verbose.has_value());
}

TEST_F(StrictJsonFile, UnknownKeyIsAnErrorNamingItAndTheKnownOnes) {
  EXPECT_EQ(error_reading(R"({"name": "a", "link": {"gen": 5, "width": 16}, "verbsoe": true})"),
            "unknown key 'verbsoe' (known: name, link, verbose)");
  EXPECT_EQ(error_reading(R"({"name": "a", "link": {"gen": 5, "widht": 16}})"),
            "link: key 'width' not found");
  EXPECT_EQ(error_reading(R"({"name": "a", "link": {"gen": 5, "width": 16, "lanes": 16}})"),
            "link: unknown key 'lanes' (known: gen, width)");
}

TEST_F(StrictJsonFile, WrongTypeNamesTheKeyPath) {
  EXPECT_EQ(error_reading(R"({"name": 7, "link": {"gen": 5, "width": 16}})"),
            "name: type must be string, but is number");
  EXPECT_EQ(error_reading(R"({"name": "a", "link": {"gen": "5", "width": 16}})"),
            "link.gen: type must be number, but is string");
  EXPECT_EQ(error_reading(R"({"name": "a", "link": [5, 16]})"),
            "link: expected an object, got array");
  EXPECT_EQ(error_reading(R"(["name"])"), "expected an object, got array");
}

TEST_F(StrictJsonFile, IntegersOutOfRangeAreRefusedNotCast) {
  const std::string e = error_reading(R"({"name": "a", "link": {"gen": 1e300, "width": 16}})");
  EXPECT_EQ(e.rfind("`link.gen`: expected an integer", 0), 0u) << e;
}

TEST_F(StrictJsonFile, MissingKeyNamesIt) {
  EXPECT_EQ(error_reading(R"({"link": {"gen": 5, "width": 16}})"), "key 'name' not found");
}

TEST_F(StrictJsonFile, MalformedOrMissingFileIsOneLineNamingTheFile) {
  EXPECT_EQ(error_reading(R"({"name": "a",)").rfind("not valid JSON: ", 0), 0u);
  const std::string missing = dir_.file("absent.json");
  try {
    load_json_file(missing, read_settings);
    ADD_FAILURE() << "read a file that is not there";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ": ", 0), 0u) << e.what();
  }
}

TEST(StrictList, NamesTheIndexOfTheBadItem) {
  const auto read_int = [](const json& v, const std::string& where) {
    return strict_as<int>(v, where);
  };
  EXPECT_EQ(strict_list<int>(json::parse("[1, 2]"), "gpus", read_int), (std::vector<int>{1, 2}));
  try {
    strict_list<int>(json::parse(R"([1, "x"])"), "gpus", read_int);
    ADD_FAILURE() << "read a string as an int";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "gpus[1]: type must be number, but is string");
  }
  try {
    strict_list<int>(json::parse("{}"), "gpus", read_int);
    ADD_FAILURE() << "read an object as a list";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "gpus: expected an array, got object");
  }
}

TEST(JsonErrorTail, DropsNlohmannsTag) {
  EXPECT_EQ(json_error_tail("[json.exception.type_error.302] type must be string"),
            "type must be string");
  EXPECT_EQ(json_error_tail("plain"), "plain");
  EXPECT_EQ(json_error_tail("[json.exception.type_error.302] (/bandwidth/0/median_gbps) type must "
                            "be number, but is string"),
            "/bandwidth/0/median_gbps: type must be number, but is string");
}

// A value of the wrong type deep in a document: the error names where it is (JSON_DIAGNOSTICS).
TEST(JsonErrorTail, ADocumentsTypeErrorNamesTheKeyAtFault) {
  const nlohmann::json j = nlohmann::json::parse(R"({"bandwidth": [{"median_gbps": "fast"}, 5]})");
  try {
    (void)j.at("bandwidth").at(0).at("median_gbps").get<double>();
    FAIL() << "read";
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_error_tail(e.what()),
              "/bandwidth/0/median_gbps: type must be number, but is string");
  }
  try {
    (void)j.at("bandwidth").at(1).at("median_gbps");
    FAIL() << "read";
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_error_tail(e.what()), "/bandwidth/1: cannot use at() with number");
  }
}

}  // namespace
}  // namespace p2p
