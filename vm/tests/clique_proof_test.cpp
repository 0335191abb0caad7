// vm verify on planted cliques: the doctor fixtures of VFIO guests whose clique pairs the peer
// copy proved, broke, or never copied.
#include "vm/clique_proof.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

CliqueProof proof(const std::string& fixture) {
  const std::string path = testing::source("doctor/tests/fixtures/" + fixture);
  return prove_cliques(doctor::load_facts_file(path), fixture);
}

std::vector<std::string> states(const CliqueProof& p) {
  std::vector<std::string> out;
  for (const auto& q : p.pairs)
    out.push_back(q.a.substr(5, 2) + "-" + q.b.substr(5, 2) + " " + q.state);
  return out;
}

TEST(CliqueProof, APlantedCliqueAcrossSocketsIsProvenWhereItHoldsAndBrokenWhereNot) {
  // Four GPUs in clique 0, one of them on the host's other socket: its three pairs broke.
  const CliqueProof p = proof("vfio-bad-clique.json");
  EXPECT_EQ(states(p), (std::vector<std::string>{"01-02 proven", "01-03 proven", "01-04 broken",
                                                 "02-03 proven", "02-04 broken", "03-04 broken"}));
  EXPECT_EQ(p.take_out, std::vector<std::string>{"0000:04:00.0"});
  EXPECT_EQ(p.exit_code(), 1);
  EXPECT_NE(p.pairs[2].detail.find("copy corrupt"), std::string::npos) << p.pairs[2].detail;
  const auto j = proof_json(p);
  EXPECT_EQ(j.at("schema"), "p2pcheck.vm_verify");
  EXPECT_EQ(j.at("pairs").at(2).at("state"), "broken");
}

TEST(CliqueProof, WritesThatNeverLandBreakTheOnlyPair) {
  const CliqueProof p = proof("vfio-clique-peer-copy.json");
  EXPECT_EQ(states(p), std::vector<std::string>{"06-07 broken"});
  EXPECT_NE(format_proof_text(p).find("0 of 1 clique pair(s) proven, 1 broken"), std::string::npos);
}

TEST(CliqueProof, CliquesNotCopiedAreUnprovenAndDoNotPass) {
  const CliqueProof p = proof("vfio-cliques-unverified.json");
  EXPECT_EQ(states(p), (std::vector<std::string>{"01-02 unproven", "03-04 unproven"}));
  EXPECT_EQ(p.exit_code(), 1);
  EXPECT_NE(format_proof_text(p).find("Unproven: run p2pcheck vm verify"), std::string::npos);
}

TEST(CliqueProof, ItsDocumentReadsBackAndAMangledPairIsNamed) {
  auto j = proof_json(proof("vfio-bad-clique.json"));
  const auto pairs = proof_pairs_from_json(j, "v.json");
  ASSERT_EQ(pairs.size(), 6u);
  EXPECT_EQ(pairs[2].state, "broken");
  EXPECT_EQ(pairs[2].b, "0000:04:00.0");
  j["pairs"][1]["state"] = "maybe";
  try {
    proof_pairs_from_json(j, "v.json");
    FAIL() << "a state that is none of the three";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("v.json: pairs[1].state: 'maybe' is not proven"),
              std::string::npos)
        << e.what();
  }
  j["pairs"][1].erase("state");
  EXPECT_THROW(proof_pairs_from_json(j, "v.json"), InputError);
}

TEST(CliqueProof, NoCliqueIsNothingProvenAndDoesNotPass) {
  const CliqueProof p = proof("h200-vm-real.json");
  EXPECT_TRUE(p.pairs.empty());
  EXPECT_EQ(p.exit_code(), 1);
  EXPECT_NE(format_proof_text(p).find("nothing to prove"), std::string::npos);
}

}  // namespace
}  // namespace p2p::vm
