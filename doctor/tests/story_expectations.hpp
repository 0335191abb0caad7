// Stories from published reports judged against what the report says the doctor must find
// (fixtures/health_helpers.py writes the expectation files): the top-ranked cause, the GPUs it
// names, the exit code and words its fix must carry. story_misses() lists every way a verdict
// falls short, so a failing story says all that is wrong with it at once.
#pragma once

#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "test_support.hpp"

namespace p2p::doctor::test {

struct StoryExpectation {
  std::string fixture;  // relative to fixture_dir()
  std::string source;
  std::string confirmed_fix;
  std::string cause;
  std::vector<std::string> gpus;
  std::optional<int> exit_code;
  std::vector<std::string> fix_mentions;
};

// gtest prints a parameter by this, instead of its bytes.
inline void PrintTo(const StoryExpectation& e, std::ostream* os) { *os << e.fixture; }

inline std::vector<StoryExpectation> story_expectations(const std::string& manifest,
                                                        const std::string& folder = "") {
  const auto j = read_json_file(fixture(manifest));
  std::vector<StoryExpectation> out;
  for (const auto& s : j.at("stories")) {
    StoryExpectation e;
    e.fixture = folder + s.at("fixture").get<std::string>();
    e.source = s.at("source").get<std::string>();
    e.confirmed_fix = s.at("confirmed_fix").get<std::string>();
    e.cause = s.at("cause").get<std::string>();
    e.gpus = s.at("gpus").get<std::vector<std::string>>();
    if (!s.at("exit_code").is_null()) e.exit_code = s.at("exit_code").get<int>();
    e.fix_mentions = s.at("fix_mentions").get<std::vector<std::string>>();
    out.push_back(e);
  }
  return out;
}

inline std::string lowered(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

inline std::vector<std::string> story_misses(const Judged& j, const StoryExpectation& e) {
  std::vector<std::string> misses;
  if (j.verdict.causes.empty()) return {"no cause named: " + j.verdict.headline};
  const Cause& top = j.verdict.causes.front();
  if (top.id != e.cause) {
    std::string all;
    for (const auto& c : j.verdict.causes) all += (all.empty() ? "" : ", ") + c.id;
    misses.push_back("top cause '" + top.id + "', expected '" + e.cause + "' (causes: " + all +
                     ")");
  }
  for (const auto& g : e.gpus)
    if (std::find(top.gpus.begin(), top.gpus.end(), g) == top.gpus.end())
      misses.push_back("top cause does not name GPU " + g);
  const int code = exit_code_of(j.findings);
  if (e.exit_code && code != *e.exit_code)
    misses.push_back("exit code " + std::to_string(code) + ", expected " +
                     std::to_string(*e.exit_code));
  for (const auto& word : e.fix_mentions)
    if (lowered(top.fix).find(lowered(word)) == std::string::npos)
      misses.push_back("fix does not mention '" + word + "': " + top.fix);
  return misses;
}

inline std::string fixture_name(const std::string& path) {
  std::string s = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  s = s.substr(0, s.find('.'));
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace p2p::doctor::test
