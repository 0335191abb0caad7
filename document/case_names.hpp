// The names of bench's measurement cases, as results documents carry them in `case`. Policies
// name them in floors, and the names an importer gives a peer tool's figures are these; a name
// outside the list is a typo (bench's own table, bench/measure/cases.cpp, is checked against it by
// bench_cases_test).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace p2p::doc {

inline const std::vector<std::string>& bench_case_names() {
  static const std::vector<std::string> names = {"ce_unidir_write",
                                                 "ce_unidir_read",
                                                 "ce_bidir",
                                                 "sm_read",
                                                 "sm_write",
                                                 "sm_bidir",
                                                 "staged",
                                                 "h2d_ce",
                                                 "d2h_ce",
                                                 "h2d_d2h_ce",
                                                 "h2d_sm",
                                                 "d2h_sm",
                                                 "h2d_d2h_sm",
                                                 "device_local_ce",
                                                 "device_local_sm",
                                                 "contention_ring",
                                                 "contention_all_to_one",
                                                 "contention_one_to_all",
                                                 "latency_peer",
                                                 "latency_host"};
  return names;
}

inline bool is_bench_case(const std::string& name) {
  const auto& names = bench_case_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace p2p::doc
