// Paths of the cluster fixtures (fixtures/make_unit_fixtures.py says where they come from).
#pragma once

#include <string>

#include "cluster/host_lines.hpp"

namespace p2p::cluster::testing {

inline std::string lines_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/cluster/tests/fixtures/lines/" + name;
}

inline HostRun host_fixture(const std::string& name) {
  return read_host_lines_file(lines_fixture(name));
}

inline std::string golden_topology(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/" + name;
}

}  // namespace p2p::cluster::testing
