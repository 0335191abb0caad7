// The names of bench's measurement cases, as results documents carry them in `case`. Policies
// name them in floors, and the names an importer gives a peer tool's figures are these; a name
// outside the list is a typo (bench's own table, bench/measure/cases.cpp, is checked against it by
// bench_cases_test).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace p2p::doc {

// One constant per case, so that code names a case by a word the compiler checks.
namespace cases {
inline constexpr const char kCeUnidirWrite[] = "ce_unidir_write";
inline constexpr const char kCeUnidirRead[] = "ce_unidir_read";
inline constexpr const char kCeBidir[] = "ce_bidir";
inline constexpr const char kSmRead[] = "sm_read";
inline constexpr const char kSmWrite[] = "sm_write";
inline constexpr const char kSmBidir[] = "sm_bidir";
inline constexpr const char kStaged[] = "staged";
inline constexpr const char kH2dCe[] = "h2d_ce";
inline constexpr const char kD2hCe[] = "d2h_ce";
inline constexpr const char kH2dD2hCe[] = "h2d_d2h_ce";
inline constexpr const char kH2dSm[] = "h2d_sm";
inline constexpr const char kD2hSm[] = "d2h_sm";
inline constexpr const char kH2dD2hSm[] = "h2d_d2h_sm";
inline constexpr const char kDeviceLocalCe[] = "device_local_ce";
inline constexpr const char kDeviceLocalSm[] = "device_local_sm";
inline constexpr const char kContentionRing[] = "contention_ring";
inline constexpr const char kContentionAllToOne[] = "contention_all_to_one";
inline constexpr const char kContentionOneToAll[] = "contention_one_to_all";
inline constexpr const char kLatencyPeer[] = "latency_peer";
inline constexpr const char kLatencyHost[] = "latency_host";
}  // namespace cases

inline const std::vector<std::string>& bench_case_names() {
  static const std::vector<std::string> names = {
      cases::kCeUnidirWrite,
      cases::kCeUnidirRead,
      cases::kCeBidir,
      cases::kSmRead,
      cases::kSmWrite,
      cases::kSmBidir,
      cases::kStaged,
      cases::kH2dCe,
      cases::kD2hCe,
      cases::kH2dD2hCe,
      cases::kH2dSm,
      cases::kD2hSm,
      cases::kH2dD2hSm,
      cases::kDeviceLocalCe,
      cases::kDeviceLocalSm,
      cases::kContentionRing,
      cases::kContentionAllToOne,
      cases::kContentionOneToAll,
      cases::kLatencyPeer,
      cases::kLatencyHost,
  };
  return names;
}

inline bool is_bench_case(const std::string& name) {
  const auto& names = bench_case_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace p2p::doc
