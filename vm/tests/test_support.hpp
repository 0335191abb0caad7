// Helpers shared by the vm tests: fixture paths, loading a host, planning on it.
#pragma once

#include <string>

#include "common/file_io.hpp"
#include "doctor/facts.hpp"
#include "topology/discovery/discovery.hpp"
#include "vm/host_view.hpp"

namespace p2p::vm::testing {

inline std::string source(const std::string& relative) {
  return std::string(P2P_SOURCE_DIR) + "/" + relative;
}
inline std::string config(const std::string& name) {
  return source("vm/tests/fixtures/configs/" + name);
}
inline std::string topology(const std::string& name) {
  return source("topology/tests/fixtures/" + name);
}
inline std::string host_facts() {
  return source("vm/tests/fixtures/hosts/rtxpro6000-lxc-facts.json");
}

// A host from a topology file, with or without doctor facts.
inline HostView host(const std::string& topology_path, const doctor::Facts* facts = nullptr) {
  return make_host_view(topo::load_topology(topology_path), facts, facts ? "facts.json" : "");
}

}  // namespace p2p::vm::testing
