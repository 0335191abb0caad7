#include "cluster/fixture_host.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/strict_json.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::cluster {

namespace {

struct Manifest {
  std::string hostname, facts, topology, figures;  // the last three relative to the fixture dir
};

// Written by hand: strict, so a misspelt key is an error naming it.
Manifest read_manifest(const nlohmann::json& j) {
  StrictReader in(j, "");
  Manifest m;
  in.get("hostname", m.hostname);
  if (m.hostname.empty()) throw InputError("hostname: expected a non-empty string");
  in.get("facts", m.facts);
  in.get("topology", m.topology);
  in.get("figures", m.figures);
  in.finish();
  return m;
}

}  // namespace

FixtureHost load_fixture_host(const std::string& dir) {
  const Manifest m = load_json_file(dir + "/host.json", read_manifest);
  FixtureHost h;
  h.dir = dir;
  h.hostname = m.hostname;
  h.facts = doctor::load_facts_file(dir + "/" + m.facts);
  const std::string topology = dir + "/" + m.topology;
  h.topology = topo::load_topology(topology);
  h.topology.source = topology;
  h.figures = doc::read_bench_document_file(dir + "/" + m.figures);
  return h;
}

}  // namespace p2p::cluster
