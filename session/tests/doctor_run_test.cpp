// The doctor step from files, on the CPU: saved facts judged, facts handed in (a fixture host)
// judged the same, a fixture root collected and saved, and the options that cannot go together.
#include "session/doctor_run.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/temp_dir.hpp"

namespace {

using p2p::session::DoctorRequest;
using p2p::session::run_doctor;

std::string doctor_run_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/doctor/tests/fixtures/" + name;
}

DoctorRequest saved(const std::string& name) {
  DoctorRequest r;
  r.facts_file = doctor_run_fixture(name);
  return r;
}

TEST(DoctorRun, HealthyFactsExitZero) {
  const auto d = run_doctor(saved("bare-metal-healthy.json"));
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_EQ(d.verdict.state, p2p::doctor::VerdictState::kHealthy);
  EXPECT_EQ(d.verdict_json.at("schema"), "p2pcheck.doctor.report");
  EXPECT_EQ(d.verdict_json.at("exit_code"), 0);
}

TEST(DoctorRun, AFailedCheckExitsWithItsCauseFirst) {
  const auto d = run_doctor(saved("lxc-hmm-kaslr.json"));
  EXPECT_EQ(d.exit_code, 3) << "CUDA cannot work there: no usable GPU";
  ASSERT_FALSE(d.verdict.causes.empty());
  EXPECT_EQ(d.verdict_json.at("verdict").at("causes").at(0).at("id"), "uvm_hmm");
}

TEST(DoctorRun, FactsHandedInAreJudgedAsTheFileIs) {
  const auto from_file = run_doctor(saved("lxc-gsp-firmware-missing.json"));
  DoctorRequest r;
  r.facts = from_file.facts;
  const auto given = run_doctor(r);
  EXPECT_EQ(given.verdict_json, from_file.verdict_json);
  EXPECT_EQ(given.exit_code, 3);
}

TEST(DoctorRun, TheVerdictNamesTheFileItJudged) {
  const auto d = run_doctor(saved("bare-metal-healthy.json"));
  EXPECT_FALSE(d.facts.source.empty());
  EXPECT_EQ(d.verdict_json.at("source"), d.facts.source);
}

TEST(DoctorRun, ARootIsCollectedSavedAndReplayedToTheSameFindings) {
  const p2p::TempDir dir("p2p_doctor_run");
  DoctorRequest r;
  r.root = doctor_run_fixture("roots/lxc-blackwell");
  r.save_facts = dir.file("facts.json");
  const auto live = run_doctor(r);
  EXPECT_EQ(live.exit_code, 3);
  const auto replay =
      run_doctor(DoctorRequest{std::nullopt, r.save_facts, "", 0, std::nullopt, ""});
  EXPECT_EQ(replay.verdict_json.at("findings"), live.verdict_json.at("findings"));
}

TEST(DoctorRun, OptionsThatCannotGoTogetherAreBadInput) {
  DoctorRequest root_and_facts = saved("bare-metal-healthy.json");
  root_and_facts.root = "/";
  EXPECT_THROW(run_doctor(root_and_facts), p2p::InputError);
  DoctorRequest logical_and_facts = saved("bare-metal-healthy.json");
  logical_and_facts.logical_gpus = 4;
  EXPECT_THROW(run_doctor(logical_and_facts), p2p::InputError);
  DoctorRequest one_logical;
  one_logical.logical_gpus = 1;
  EXPECT_THROW(run_doctor(one_logical), p2p::InputError);
}

TEST(DoctorRun, AMissingFactsFileIsBadInput) {
  EXPECT_THROW(run_doctor(saved("no-such-facts.json")), p2p::InputError);
}

}  // namespace
