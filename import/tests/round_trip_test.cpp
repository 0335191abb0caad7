// Round trip as a property: every document p2pcheck writes is read back by its own reader.
// Imports of every fixture (and of the captures an audit found p2pcheck wrote but then refused:
// a nan or inf cell, a size of 0, NV1000) either are refused at import with one line, or write a
// document that compare, report and topo --input take; every kept results document, topology
// snapshot and doctor facts file reads, writes and reads back the same.
#include "import/testing/round_trip.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "doctor/facts.hpp"

namespace p2p {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/";

std::vector<fs::path> files_in(const std::string& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Refused at import with one line naming the file, or written and read back.
enum class Outcome { kRefused, kReadBack };

Outcome import_round_trip(const std::string& text, const std::string& name) {
  try {
    testing::import_write_read_back(text, name);
    return Outcome::kReadBack;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(name, 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return Outcome::kRefused;
  }
}

TEST(RoundTrip, EveryImportFixtureIsRefusedOrReadBackByCompareReportAndTopo) {
  int read_back = 0, refused = 0;
  for (const auto& dir : {kFixtures, kFixtures + "pastes/"}) {
    for (const auto& p : files_in(dir, ".txt")) {
      // A cut or mangled capture (bad-*) may be refused or imported as far as it goes.
      const Outcome o = import_round_trip(read_text_file(p.string()), p.string());
      (o == Outcome::kReadBack ? read_back : refused) += 1;
    }
    for (const auto& p : files_in(dir, ".json")) {
      if (p.filename().string().rfind("policy", 0) == 0) continue;
      EXPECT_EQ(import_round_trip(read_text_file(p.string()), p.string()), Outcome::kReadBack) << p;
    }
  }
  EXPECT_GE(read_back, 55) << refused << " refused";
  EXPECT_LT(refused, 12);
}

TEST(RoundTrip, TopologyCapturesSavedAsSnapshotsReadBackAsTheyWere) {
  int captures = 0;
  for (const auto& p : files_in(kFixtures, ".txt")) {
    const std::string name = p.filename().string();
    // A topo -p2p capture alone holds no topology to save.
    if (name.find("topo") == std::string::npos || name.find("topo-p2p") != std::string::npos ||
        name.rfind("bad-", 0) == 0)
      continue;
    EXPECT_NO_THROW(testing::topology_write_read_back(read_text_file(p.string()), p.string())) << p;
    ++captures;
  }
  EXPECT_GE(captures, 12);
}

std::string replaced(std::string text, const std::string& what, const std::string& with) {
  const auto at = text.find(what);
  EXPECT_NE(at, std::string::npos) << what;
  if (at != std::string::npos) text.replace(at, what.size(), with);
  return text;
}

// The audit's cases: each was written as a document that report, compare and topo --input then
// refused.
TEST(RoundTrip, NonFiniteCellsSizeZeroAndNv1000AreRefusedAtImportOrReadBack) {
  const std::string nvbw = read_text_file(kFixtures + "nvbandwidth-v0.8-h200.txt");
  const std::string p2p = read_text_file(kFixtures + "p2p-bandwidth-latency-2gpu-p2p-read.txt");
  const std::string nccl = read_text_file(kFixtures + "nccl-tests-2.19.6-h200-all_reduce.txt");
  const std::string nvbw_json = read_text_file(kFixtures + "nvbandwidth-v0.8-h200.json");
  const std::string topo =
      "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
      "GPU0\t X \tNV4\t0-15\t0\n"
      "GPU1\tNV4\t X \t0-15\t0\n";
  struct Case {
    std::string name, text;
    Outcome expected;
  };
  const std::vector<Case> cases = {
      {"nvbw-nan.txt", replaced(nvbw, " 0     55.44", " 0     nan"), Outcome::kRefused},
      {"nvbw-inf.txt", replaced(nvbw, " 0     55.44", " 0     inf"), Outcome::kRefused},
      {"p2p-nan.txt", replaced(p2p, "1481.05", "nan"), Outcome::kRefused},
      {"p2p-inf.txt", replaced(p2p, "41.52", "-inf"), Outcome::kRefused},
      {"p2p-huge.txt", replaced(p2p, "41.52", "1e999"), Outcome::kRefused},
      // A figure that is not finite is refused, like every importer's (it was once a row
      // without that figure, and a table of them compared as nothing judged).
      {"nccl-nan.txt", std::regex_replace(nccl, std::regex(" 0\\.00 "), " nan "),
       Outcome::kRefused},
      {"nvbw-b0.json",
       replaced(nvbw_json, "\"version\": \"v0.8\",", "\"version\": \"v0.8\", \"bufferSize\": 0,"),
       Outcome::kReadBack},
      {"nvbw-b0.txt", "nvbandwidth -b 0\n" + nvbw, Outcome::kReadBack},
      {"topo-nv1000.txt", replaced(replaced(topo, "NV4", "NV1000"), "NV4", "NV1000"),
       Outcome::kRefused},
      {"topo-nv0.txt", replaced(replaced(topo, "NV4", "NV0"), "NV4", "NV0"), Outcome::kRefused},
      {"topo-nv4.txt", topo, Outcome::kReadBack},
  };
  for (const auto& c : cases) EXPECT_EQ(import_round_trip(c.text, c.name), c.expected) << c.name;
  // topo --input CAPTURE --save: what it saves, topo --input reads.
  EXPECT_NO_THROW(testing::topology_write_read_back(topo, "topo-nv4.txt"));
  EXPECT_THROW(testing::topology_write_read_back(cases[8].text, "topo-nv1000.txt"), InputError);
}

// A capture whose affinity column holds bytes that are not UTF-8, and text that looks like the
// escape p2pcheck writes for them (a pasted capture can hold both): the snapshot saved from it
// reads back as the same text, so the bytes are escaped once, not again on each save.
TEST(RoundTrip, BytesThatAreNotUtf8SurviveEverySaveOfASnapshot) {
  const std::string topo = std::string("\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n") +
                           "GPU0\t X \tNV4\t0-51,10K\xBA\xBB\x01\\x41-\t0\n" +
                           "GPU1\tNV4\t X \t0-15\t0\n";
  EXPECT_NO_THROW(testing::topology_write_read_back(topo, "topo-bytes.txt"));
  const std::string saved =
      topo::snapshot_to_json_text(topo::load_topology_text(topo, "topo-bytes.txt"));
  EXPECT_NE(saved.find("10K\\\\xBA\\\\xBB"), std::string::npos) << saved;
  EXPECT_NE(saved.find("\\\\x5Cx41"), std::string::npos) << "the literal text, told apart";
}

// Every document kept in results/: read, written by its own writer, read again: the same text.
TEST(RoundTrip, KeptResultsSnapshotsAndFactsWriteAndReadBackTheSame) {
  int documents = 0;
  for (const auto& e : fs::recursive_directory_iterator(std::string(P2P_SOURCE_DIR) + "/results")) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const std::string path = e.path().string();
    const nlohmann::json j = read_json_file(path);
    if (!j.is_object()) continue;
    if (j.value("schema", "") == "p2pcheck.bench.run") {
      const std::string once = json_text(nlohmann::json(doc::read_bench_document_file(path)));
      testing::read_results_document(once, path);
      const std::string twice = json_text(
          nlohmann::json(doc::bench_document_from_json(parse_json_text(once, path), path)));
      EXPECT_EQ(once, twice) << path;
      ++documents;
    } else if (j.contains("schema_version") && j.contains("gpus")) {
      testing::topology_write_read_back(read_text_file(path), path);
      ++documents;
    } else if (j.contains("schema") && j.value("schema", "") == "p2pcheck.doctor.facts") {
      const std::string once = json_text(doctor::facts_to_json(doctor::load_facts_file(path)));
      const std::string twice =
          json_text(doctor::facts_to_json(doctor::facts_from_json(parse_json_text(once, path))));
      EXPECT_EQ(once, twice) << path;
      ++documents;
    }
  }
  EXPECT_GT(documents, 20);
}

}  // namespace
}  // namespace p2p
