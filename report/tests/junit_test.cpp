// JUnit cases from the real H200 documents, the XML writer's escaping, and the result read
// back by xmllint against tests/junit.xsd (skipped, with the reason, without xmllint).
#include "report/junit.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "acceptance/judge.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "document/bench_document.hpp"
#include "report/check_cases.hpp"
#include "report/markup_text.hpp"
#include "report/tests/export_tools.hpp"

namespace p2p::report {
namespace {

const std::string kRun = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/";

doc::BenchDocument load(const std::string& name) {
  return doc::bench_document_from_json(read_json_file(kRun + name), name);
}

const CheckCase* find_case(const std::vector<CheckSuite>& suites, const std::string& name) {
  for (const auto& s : suites) {
    for (const auto& c : s.cases) {
      if (c.name == name) return &c;
    }
  }
  return nullptr;
}

TEST(JunitCases, BenchDocumentHasOneCasePerFigureAndGateReason) {
  const auto doc = load("h200-bench.json");
  const auto suites = document_suites(doc, "h200-bench.json");
  // The gate, the figures, and the verdict (judged on reading: the document stores none).
  ASSERT_EQ(suites.size(), 3u);
  EXPECT_EQ(suites[0].name, "gate");
  EXPECT_EQ(suites[1].name, "bench");
  EXPECT_EQ(suites[2].name, "acceptance");
  ASSERT_FALSE(suites[2].properties.empty());
  EXPECT_EQ(suites[2].properties[0].first, "p2pcheck.verdict");
  EXPECT_EQ(suites[1].cases.size(), doc.bandwidth.size() + doc.latency.size());
  const CheckCase* h2d = find_case(suites, "vm/h2d_ce/host->gpu0/1GiB");
  ASSERT_NE(h2d, nullptr);
  EXPECT_EQ(h2d->outcome, doc::Outcome::kPass);
  EXPECT_NE(h2d->message.find("GB/s median"), std::string::npos) << h2d->message;
  ASSERT_TRUE(h2d->time_s.has_value());
  EXPECT_GT(*h2d->time_s, 0.0);
  EXPECT_NE(find_case(suites, "vm/h2d_d2h_ce/gpu0->host dir/1GiB"), nullptr);
  EXPECT_NE(find_case(suites, "vm/latency_host/gpu0->host"), nullptr);
  // The gate ran with nothing to check: its note is a skipped case that says so.
  const CheckCase* note = find_case(suites, "vm/gate.note");
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->outcome, doc::Outcome::kSkipped);
  EXPECT_NE(note->message.find("nothing to check"), std::string::npos);
}

TEST(JunitCases, NamesAreUniqueAcrossEveryKeptDocument) {
  for (const char* name : {"h200-bench.json", "h200-nccl.json"}) {
    const auto suites = document_suites(load(name), name);
    std::set<std::string> names;
    std::size_t n = 0;
    for (const auto& s : suites) {
      for (const auto& c : s.cases) {
        names.insert(c.name);
        ++n;
      }
    }
    EXPECT_EQ(names.size(), n) << name;
    EXPECT_GT(n, 200u) << name;
  }
}

TEST(JunitCases, NcclResultsSayTimePerCallWithOneRank) {
  const auto suites = document_suites(load("h200-nccl.json"), "h200-nccl.json");
  const CheckCase* c = find_case(suites, "vm/nccl.all_reduce.float32.in_place/1 rank/1GiB");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->outcome, doc::Outcome::kPass);
  EXPECT_NE(c->message.find("us per call"), std::string::npos) << c->message;
  EXPECT_EQ(c->message.find("busbw"), std::string::npos) << "one rank has no bus: " << c->message;
}

TEST(JunitCases, FailedWaivedAndErroredFiguresMapToFailureSkippedAndError) {
  auto doc = load("h200-bench.json");
  doc.bandwidth[0].status = nlohmann::json("failed").get<decltype(doc.bandwidth[0].status)>();
  doc.bandwidth[0].detail = "3 bad words in sample 2";
  doc.bandwidth[1].status = nlohmann::json("waived").get<decltype(doc.bandwidth[1].status)>();
  doc.bandwidth[1].detail = "cudaDeviceCanAccessPeer(gpu1, gpu0) = 0";
  doc.bandwidth[2].status = nlohmann::json("error").get<decltype(doc.bandwidth[2].status)>();
  doc.bandwidth[2].detail = "CUDA error 700\nat line 3";
  const auto suites = document_suites(doc, "x");
  const auto& cases = suites[1].cases;
  EXPECT_EQ(cases[0].outcome, doc::Outcome::kFail);
  EXPECT_EQ(cases[0].message, "failed: 3 bad words in sample 2");
  EXPECT_EQ(cases[1].outcome, doc::Outcome::kSkipped);
  EXPECT_NE(cases[1].message.find("cudaDeviceCanAccessPeer"), std::string::npos);
  EXPECT_EQ(cases[2].outcome, doc::Outcome::kError);
  EXPECT_EQ(cases[2].message, "error: CUDA error 700 at line 3") << "one line";
  const CaseCounts n = count_cases({suites[0], suites[1]});
  EXPECT_EQ(n.failures, 1);
  EXPECT_EQ(n.errors, 1);
  EXPECT_EQ(n.skipped, 2);  // the waived figure and the gate's note
  // The verdict suite fails with them: a failed figure is a failed run in every format.
  const CaseCounts verdict = count_cases({suites[2]});
  EXPECT_GE(verdict.failures, 1);
  EXPECT_GE(verdict.errors, 1);
}

CheckCase case_named(const std::string& name) {
  CheckCase c;
  c.name = name;
  c.classname = "c";
  return c;
}

// Beside the verdict, as dcgmi diag gives a pass or fail per GPU: the suspect and each GPU's own
// outcome, as properties of the acceptance suite.
TEST(JunitCases, TheSuspectAndEachGpusOutcomeAreProperties) {
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/rtxpro6000-gpu5-x8.json";
  const auto d = doc::bench_document_from_json(read_json_file(path), "x8");
  const CheckSuite s = verdict_suite(accept::verdict_of(d, "export"), d.hostname, "");
  std::map<std::string, std::string> props(s.properties.begin(), s.properties.end());
  EXPECT_EQ(props["p2pcheck.verdict"], "FAIL");
  EXPECT_EQ(props["p2pcheck.suspect"].rfind("suspect: gpu5 in 69 of 69 reasons; its host link", 0),
            0u)
      << props["p2pcheck.suspect"];
  EXPECT_EQ(props["p2pcheck.gpu.gpu5"].rfind("fail: 61 of 128 checks failed", 0), 0u)
      << props["p2pcheck.gpu.gpu5"];
  EXPECT_EQ(props["p2pcheck.gpu.gpu0"].rfind("pass: 0 of ", 0), 0u) << props["p2pcheck.gpu.gpu0"];
  EXPECT_NE(render_junit({s}).find("<property name=\"p2pcheck.gpu.gpu5\" value=\"fail: 61 of 128"),
            std::string::npos);
}

TEST(JunitCases, DuplicateNamesGetANumber) {
  std::vector<CheckSuite> s(2);
  s[0].cases = {case_named("a"), case_named("a"), case_named("a #2")};
  s[1].cases = {case_named("a")};
  make_case_names_unique(s);
  std::set<std::string> names{s[0].cases[0].name, s[0].cases[1].name, s[0].cases[2].name,
                              s[1].cases[0].name};
  EXPECT_EQ(names.size(), 4u);
  EXPECT_EQ(s[0].cases[0].name, "a");
}

TEST(MarkupText, EscapesXmlAndRepairsWhatXmlCannotHold) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>", true), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(xml_escape("line1\nline2", true), "line1&#10;line2");
  EXPECT_EQ(xml_escape("line1\nline2", false), "line1\nline2");
  EXPECT_EQ(xml_escape("GPU \xC2\xB5 \xE2\x9C\x94", false),
            "GPU \xC2\xB5 \xE2\x9C\x94");  // µ ✔ kept
  EXPECT_EQ(xml_escape(std::string("nul\0bell\x07", 9), false),
            "nul\xEF\xBF\xBD"
            "bell\xEF\xBF\xBD");
  EXPECT_EQ(valid_utf8("bad \xFF\xC3 end"), "bad \xEF\xBF\xBD\xEF\xBF\xBD end");
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD")
      << "a surrogate is not UTF-8";
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD") << "overlong";
  EXPECT_EQ(single_line(" a\n\tb  c\r\n"), "a b c");
}

// Everything a name or message could carry, through the writer and back through a real parser.
std::vector<CheckSuite> hostile_suites() {
  CheckSuite s{"bench <&\"'>", "h\xC3\xB6st<1>", "2026-12-02T10:11:12Z", {}};
  s.cases.push_back({"h\xC3\xB6st/case <&> \"q\" 'a'/gpu0->gpu1/1GiB", "p2pcheck.bench.x",
                     doc::Outcome::kFail, "3 bad words & <more> \xE2\x9C\x98 \x01\x02 \xFF", 1.5});
  s.cases.push_back({"h\xC3\xB6st/waived ]]> <![CDATA[", "p2pcheck.bench.y", doc::Outcome::kSkipped,
                     "cudaDeviceCanAccessPeer(gpu1, gpu0) = 0 \"quoted\"", std::nullopt});
  s.cases.push_back({"h\xC3\xB6st/error", "p2pcheck.bench.z", doc::Outcome::kError,
                     "CUDA error\nsecond line", 0.0});
  s.cases.push_back({"h\xC3\xB6st/pass", "p2pcheck.bench.z", doc::Outcome::kPass,
                     "52.9 GB/s < 63 GB/s", std::nullopt});
  s.cases.push_back(
      {"h\xC3\xB6st/pass-quiet", "p2pcheck.bench.z", doc::Outcome::kPass, "", std::nullopt});
  return {s};
}

TEST(Junit, WriterCountsAndEscapes) {
  const std::string xml = render_junit(hostile_suites());
  EXPECT_EQ(
      xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"p2pcheck\"", 0),
      0u);
  EXPECT_NE(xml.find("tests=\"5\" failures=\"1\" errors=\"1\" skipped=\"1\""), std::string::npos);
  EXPECT_NE(xml.find("timestamp=\"2026-12-02T10:11:12\""), std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"3 bad words &amp; &lt;more&gt; \xE2\x9C\x98"),
            std::string::npos);
  EXPECT_NE(
      xml.find("<skipped message=\"cudaDeviceCanAccessPeer(gpu1, gpu0) = 0 &quot;quoted&quot;\"/>"),
      std::string::npos);
  EXPECT_NE(xml.find("<error message=\"CUDA error second line\""), std::string::npos) << "one line";
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
  EXPECT_EQ(xml.find('\xFF'), std::string::npos);
}

TEST(Junit, RealParserAcceptsHostileNamesAndTheSchemaHolds) {
  if (!p2p::testing::have_command("xmllint"))
    GTEST_SKIP() << "xmllint not installed (Debian: libxml2-utils)";
  p2p::TempDir dir;
  const std::string path = dir.file("hostile.xml");
  write_text_file_atomically(path, render_junit(hostile_suites()));
  EXPECT_EQ(p2p::testing::junit_problems(path), "");
  // Read back by a real parser: the name comes out as it went in.
  const auto r =
      p2p::testing::run_captured("xmllint --xpath 'string(//testcase[1]/@name)' '" + path + "'");
  std::string name = r.out;
  if (!name.empty() && name.back() == '\n') name.pop_back();  // xmllint ends its answer with one
  EXPECT_EQ(name, "h\xC3\xB6st/case <&> \"q\" 'a'/gpu0->gpu1/1GiB");
}

TEST(Junit, SchemaRefusesDuplicateNames) {
  if (!p2p::testing::have_command("xmllint"))
    GTEST_SKIP() << "xmllint not installed (Debian: libxml2-utils)";
  p2p::TempDir dir;
  const std::string path = dir.file("dup.xml");
  CheckSuite s{
      "bench",
      "h",
      "",
      {{"same", "c", doc::Outcome::kPass, "", {}}, {"same", "c", doc::Outcome::kPass, "", {}}}};
  write_text_file_atomically(path, render_junit({s}));
  const std::string problems = p2p::testing::junit_problems(path);
  EXPECT_NE(problems.find("Duplicate key-sequence ['same']"), std::string::npos)
      << "the schema must catch what GitLab would merge: " << problems;
}

TEST(Junit, EveryKeptDocumentValidates) {
  if (!p2p::testing::have_command("xmllint"))
    GTEST_SKIP() << "xmllint not installed (Debian: libxml2-utils)";
  p2p::TempDir dir;
  for (const char* name : {"h200-bench.json", "h200-nccl.json"}) {
    const std::string path = dir.file(std::string(name) + ".xml");
    write_text_file_atomically(path, render_junit(document_suites(load(name), name)));
    EXPECT_EQ(p2p::testing::junit_problems(path), "") << name;
  }
}

}  // namespace
}  // namespace p2p::report
