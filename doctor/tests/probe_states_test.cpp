// The probes' words in a facts file: each reads as its enum and is written back as the same word;
// a word outside the table is refused with the path and the words that are known.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "doctor/facts.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using namespace p2p::doctor;
using test::contains;

json peer_copy_fixture() {
  return p2p::read_json_file(test::fixture("vfio-clique-peer-copy.json"));
}

std::string probe_error_of(const json& j) {
  try {
    facts_from_json(j);
  } catch (const p2p::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ProbeStates, EveryProbeStatusWordReadsAndWritesItself) {
  const std::pair<const char*, ProbeStatus> words[] = {
      {"not_run", ProbeStatus::kNotRun},      {"library_missing", ProbeStatus::kLibraryMissing},
      {"completed", ProbeStatus::kCompleted}, {"crashed", ProbeStatus::kCrashed},
      {"timed_out", ProbeStatus::kTimedOut},  {"failed", ProbeStatus::kFailed}};
  for (const auto& [word, status] : words) {
    json j = peer_copy_fixture();
    j["cuda"]["status"] = word;
    j["nvml"]["status"] = word;
    const Facts f = facts_from_json(j);
    EXPECT_EQ(f.cuda.status, status) << word;
    EXPECT_EQ(f.nvml.status, status) << word;
    EXPECT_EQ(facts_to_json(f).at("cuda").at("status"), word);
  }
}

TEST(ProbeStates, AnUnknownProbeStatusIsRefusedWithItsPath) {
  json j = peer_copy_fixture();
  j["peer_copy"]["status"] = "done";
  EXPECT_EQ(probe_error_of(j), "peer_copy.status: unknown probe status 'done'");
}

TEST(ProbeStates, PeerCopyResultsAndModeKeepTheirWords) {
  json j = peer_copy_fixture();
  j["peer_copy"]["pairs"][0]["copy_result"] = "error";
  j["peer_copy"]["pairs"][0]["store_result"] = "not_run";
  j["peer_copy"]["mode"] = "self";
  const Facts f = facts_from_json(j);
  EXPECT_EQ(f.peer_copy.pairs[0].copy_result, CopyResult::kError);
  EXPECT_EQ(f.peer_copy.pairs[0].store_result, CopyResult::kNotRun);
  EXPECT_TRUE(f.peer_copy.pairs[0].went_wrong());
  EXPECT_EQ(f.peer_copy.mode, PeerCopyMode::kSelf);
  EXPECT_EQ(facts_to_json(f).at("peer_copy"), j.at("peer_copy"));
}

TEST(ProbeStates, AnUnknownCopyResultOrModeNamesTheKnownWords) {
  json j = peer_copy_fixture();
  j["peer_copy"]["pairs"][1]["store_result"] = "fine";
  EXPECT_TRUE(contains(probe_error_of(j),
                       "peer_copy.pairs[1].store_result: unknown result 'fine' "
                       "(expected ok, corrupt, error or not_run)"))
      << probe_error_of(j);
  j = peer_copy_fixture();
  j["peer_copy"]["mode"] = "all";
  EXPECT_EQ(probe_error_of(j),
            "peer_copy.mode: unknown mode 'all' (expected pairs, self, logical or empty)");
}

TEST(ProbeStates, AGpudirectStateOutsideTheTableIsRefused) {
  json j = peer_copy_fixture();
  j["vfio"]["gpudirect"]["value"][1]["state"] = "missing";
  EXPECT_TRUE(
      contains(probe_error_of(j), "'missing' is not one of present, absent, unreadable, malformed"))
      << probe_error_of(j);
}

TEST(ProbeStates, AnOpenIsOkOrItsErrorAndWritesBackTheSame) {
  json j = peer_copy_fixture();
  auto& nodes = j["device_nodes"]["value"];
  ASSERT_GE(nodes.size(), 2u);
  nodes[0]["open_rdwr"] = "ok";
  nodes[1]["open_rdwr"] = "EPERM";
  const Facts f = facts_from_json(j);
  const auto& read = f.device_nodes.value;
  ASSERT_TRUE(read[0].open_rdwr && read[1].open_rdwr);
  EXPECT_TRUE(read[0].open_rdwr->opened);
  EXPECT_FALSE(read[1].open_rdwr->opened);
  EXPECT_TRUE(read[1].open_rdwr->failed_with("EPERM"));
  EXPECT_EQ(facts_to_json(f).at("device_nodes"), j.at("device_nodes"));
}

}  // namespace
