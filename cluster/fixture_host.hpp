// TEST ONLY (`--fixture-host DIR`, hidden from --help): a host described by files, so the node
// chain, merge and the MPI cluster path run end to end on a CPU-only CI machine. DIR/host.json:
//   {"hostname": "node-a", "facts": "...", "topology": "...", "figures": "..."}
// facts: doctor facts JSON (doctor --save-facts); topology: hwloc XML or snapshot; figures: a
// results document (bench --json) whose figures stand for the bench step. Paths are relative
// to DIR. Everything is read before the chain starts, so a bad fixture fails alone (exit 2).
#pragma once

#include <string>

#include "doctor/facts.hpp"
#include "document/bench_document.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

struct FixtureHost {
  std::string dir;
  std::string hostname;
  doctor::Facts facts;
  topo::TopologySnapshot topology;
  doc::BenchDocument figures;
};

FixtureHost load_fixture_host(const std::string& dir);

}  // namespace p2p::cluster
