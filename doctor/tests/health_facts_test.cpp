// The health facts in the facts document: an old document reads as "not collected", a new one
// round-trips exactly, and the reader is as strict inside `health` as everywhere else.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "doctor/facts.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using namespace p2p::doctor;

std::string health_error_of(const json& j) {
  try {
    facts_from_json(j);
  } catch (const p2p::InputError& e) {
    return e.what();
  }
  return "";
}

Facts with_health() {
  Facts f = load_facts_file(test::fixture("bare-metal-healthy.json"));
  NvmlHealth h;
  h.query_errors["nvmlDeviceGetPcieReplayCounter"] = 999;
  h.ecc_mode_current = true;
  h.ecc_volatile_uncorrected = 3;
  h.remapped_rows_pending = true;
  h.recovery_action = recovery_action::kGpuReset;
  h.processes = std::vector<NvmlProcess>{{4242, "compute", 1ull << 30, std::string("python3")},
                                         {77, "graphics", std::nullopt, std::nullopt}};
  h.clock_event_reasons = clock_event::kHwSlowdown;
  h.clock_event_ns["hw_power_brake"] = 5000000000ull;
  h.temperature_c = 88;
  h.vgpu_licensed = false;
  h.vgpu_license_product = "NVIDIA Virtual Compute Server";
  f.nvml.devices[1].health = h;
  return f;
}

TEST(HealthFacts, ADocumentFromBeforeHealthFactsReadsThemAsNotCollected) {
  const Facts f = load_facts_file(test::fixture("h200-vm-real.json"));
  ASSERT_FALSE(f.nvml.devices.empty());
  for (const auto& d : f.nvml.devices) EXPECT_FALSE(d.health.has_value());
  const json again = facts_to_json(f);
  EXPECT_TRUE(again["nvml"]["devices"][0]["health"].is_null()) << "written back as null";
  EXPECT_EQ(facts_to_json(facts_from_json(again)), again);
}

TEST(HealthFacts, EveryHealthFactRoundTrips) {
  const Facts f = with_health();
  const json j = facts_to_json(f);
  const Facts back = facts_from_json(j);
  ASSERT_TRUE(back.nvml.devices[1].health.has_value());
  const NvmlHealth& h = *back.nvml.devices[1].health;
  EXPECT_EQ(h.query_errors.at("nvmlDeviceGetPcieReplayCounter"), 999);
  EXPECT_EQ(h.ecc_volatile_uncorrected, std::optional<std::uint64_t>(3));
  EXPECT_FALSE(h.ecc_aggregate_uncorrected.has_value()) << "null stays null, not 0";
  ASSERT_TRUE(h.processes.has_value());
  EXPECT_EQ(h.processes->at(0).name, std::optional<std::string>("python3"));
  EXPECT_FALSE(h.processes->at(1).used_memory_bytes.has_value());
  EXPECT_EQ(h.clock_event_ns.at("hw_power_brake"), 5000000000ull);
  EXPECT_EQ(facts_to_json(back), j);
  EXPECT_FALSE(back.nvml.devices[0].health.has_value());
}

TEST(HealthFacts, NoProcessListIsNotAnEmptyOne) {
  Facts f = with_health();
  f.nvml.devices[1].health->processes.reset();
  const json j = facts_to_json(f);
  EXPECT_TRUE(j["nvml"]["devices"][1]["health"]["processes"].is_null());
  EXPECT_FALSE(facts_from_json(j).nvml.devices[1].health->processes.has_value());
}

TEST(HealthFacts, TheReaderIsStrictInsideHealth) {
  json j = facts_to_json(with_health());
  json missing = j;
  missing["nvml"]["devices"][1]["health"].erase("mig_mode_current");
  EXPECT_NE(
      health_error_of(missing).find("nvml.devices[1].health: key 'mig_mode_current' not found"),
      std::string::npos)
      << health_error_of(missing);
  json kind = j;
  kind["nvml"]["devices"][1]["health"]["processes"][0]["kind"] = "batch";
  EXPECT_NE(
      health_error_of(kind).find("nvml.devices[1].health.processes[0].kind: unknown process kind"),
      std::string::npos)
      << health_error_of(kind);
  json extra = j;
  extra["nvml"]["devices"][1]["health"]["ecc_mode"] = true;
  EXPECT_NE(health_error_of(extra).find("unknown key 'ecc_mode'"), std::string::npos)
      << health_error_of(extra);
}

}  // namespace
