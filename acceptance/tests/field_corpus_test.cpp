// Real captures from public threads (acceptance/corpus/, each labelled sick or healthy from its
// thread's own conclusion before p2pcheck read it), imported and judged with the default policy
// as a new user would. dev/ is what the rules were checked against: every capture must come out
// as labelled, except the misses known-misses.json lists, each with why (and each must still be
// a miss, so the list cannot go stale). holdout/ was kept aside until the end: its score is
// printed, not tuned to; only that every capture is read or refused cleanly is asserted.
#include <gtest/gtest.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "acceptance/judge.hpp"
#include "common/error.hpp"
#include "common/file_io.hpp"
#include "import/import_document.hpp"

namespace p2p::accept {
namespace {

const std::string kCorpus = std::string(P2P_SOURCE_DIR) + "/acceptance/corpus/";

struct Capture {
  std::string file;
  std::string tool;
  std::string label;  // sick | healthy
  std::string kind;
  std::string source;
};

struct Judged {
  bool read = false;     // imported (false: refused with an InputError)
  bool failed = false;   // the verdict fails (FAIL or ERROR), or the capture was refused
  std::string headline;  // PASS, FAIL, ... or "unreadable"
  std::string reason;    // the first reason, or the refusal
};

std::vector<Capture> captures(const std::string& set) {
  const nlohmann::json j = read_json_file(kCorpus + set + "/labels.json");
  std::vector<Capture> out;
  for (const auto& c : j.at("captures"))
    out.push_back({c.at("file"), c.at("tool"), c.at("label"), c.at("kind"), c.at("source")});
  return out;
}

Judged judge_capture(const std::string& set, const Capture& c) {
  Judged r;
  try {
    const std::string path = kCorpus + set + "/" + c.file;
    std::vector<import::ImportedFigures> parts;
    for (auto& s :
         import::import_paste(read_text_file(path), c.file, import::ImportOptions{}).sections)
      parts.push_back(std::move(s));
    doc::BenchDocument d =
        import::import_document(parts, import::ImportOptions{}, "2026-12-05T12:00:00Z");
    mark_not_meaningful(d);
    const doc::RunVerdict v = judge_document(d, AcceptancePolicy{}, RunFacts{}, "judge");
    r.read = true;
    r.failed = !doc::passes(v.outcome);
    r.headline = doc::headline(v);
    const auto reasons = v.reasons();
    if (!reasons.empty())
      r.reason =
          reasons.front().rule + " " + reasons.front().subject + ": " + reasons.front().message;
  } catch (const InputError& e) {
    r.failed = true;
    r.headline = "unreadable";
    r.reason = e.what();
  }
  return r;
}

// Right: a sick capture fails with a verdict, a healthy one passes. An unreadable capture is
// wrong either way: a sick box the tool cannot read is not caught.
bool right(const Capture& c, const Judged& r) { return r.read && (c.label == "sick") == r.failed; }

std::string score(const std::string& set, std::vector<std::string>* wrong = nullptr) {
  int sick = 0, sick_failed = 0, healthy = 0, healthy_passed = 0;
  std::ostringstream table;
  for (const auto& c : captures(set)) {
    const Judged r = judge_capture(set, c);
    const bool ok = right(c, r);
    (c.label == "sick" ? sick : healthy) += 1;
    (c.label == "sick" ? sick_failed : healthy_passed) += ok ? 1 : 0;
    if (!ok && wrong) wrong->push_back(c.file);
    table << (ok ? "  ok    " : "  MISS  ") << std::left << std::setw(8) << c.label << std::setw(20)
          << r.headline.substr(0, 19) << c.file << "\n        " << r.reason.substr(0, 220) << "\n";
  }
  std::ostringstream out;
  out << set << ": " << sick_failed << " of " << sick << " sick captures fail, " << healthy_passed
      << " of " << healthy << " healthy ones pass\n"
      << table.str();
  return out.str();
}

TEST(FieldCorpus, DevCapturesComeOutAsTheirThreadsConcluded) {
  if (!std::filesystem::exists(kCorpus + "dev/labels.json")) GTEST_SKIP() << "no corpus";
  std::vector<std::string> wrong;
  const std::string report = score("dev", &wrong);
  std::cout << report;
  const nlohmann::json known = read_json_file(kCorpus + "dev/known-misses.json");
  std::map<std::string, std::string> misses;
  for (const auto& m : known.at("misses")) misses[m.at("file")] = m.at("why");
  for (const auto& f : wrong)
    EXPECT_EQ(misses.count(f), 1u) << f << ": comes out wrong\n" << report;
  for (const auto& [f, why] : misses)
    EXPECT_NE(std::find(wrong.begin(), wrong.end(), f), wrong.end())
        << f << " is listed as a known miss (" << why << ") but now comes out right: take it off";
}

TEST(FieldCorpus, HoldoutCapturesAreReadOrRefusedByNameAndScored) {
  if (!std::filesystem::exists(kCorpus + "holdout/labels.json")) GTEST_SKIP() << "no corpus";
  for (const auto& c : captures("holdout")) {
    const Judged r = judge_capture("holdout", c);
    if (!r.read) EXPECT_EQ(r.reason.rfind(c.file + ":", 0), 0u) << r.reason;  // names the file
  }
  std::cout << score("holdout");
}

}  // namespace
}  // namespace p2p::accept
