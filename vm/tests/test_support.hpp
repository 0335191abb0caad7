// Helpers shared by the vm tests: fixture paths, loading a host, planning on it.
#pragma once

#include <string>
#include <vector>

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

// n GPUs: in a VFIO guest (PHB everywhere) or on its host, in switches of 64 (PIX, SYS across):
// the planners and the comparison at the topology ceiling of 1,024 GPUs.
inline topo::TopologySnapshot many_gpus(std::size_t n, bool guest) {
  topo::TopologySnapshot t;
  t.source = guest ? "vm.txt" : "host.txt";
  t.environment.kind = guest ? "vm" : "bare-metal";
  t.gpus.resize(n);
  t.pcie_matrix.assign(n, std::vector<topo::PathClass>(n, topo::PathClass::kSys));
  t.nvlink_count.assign(n, std::vector<int>(n, 0));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      t.pcie_matrix[a][b] = a == b             ? topo::PathClass::kSelf
                            : guest            ? topo::PathClass::kPhb
                            : a / 64 == b / 64 ? topo::PathClass::kPix
                                               : topo::PathClass::kSys;
  return t;
}

}  // namespace p2p::vm::testing
