#include "cluster/fixture_host.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::cluster {

FixtureHost load_fixture_host(const std::string& dir) {
  const std::string manifest = dir + "/host.json";
  const nlohmann::json j = read_json_file(manifest);
  const auto path_of = [&](const char* key) {
    if (!j.is_object() || !j.contains(key) || !j.at(key).is_string())
      throw InputError(manifest + ": `" + key + "` (a path relative to " + dir + ") is missing");
    return dir + "/" + j.at(key).get<std::string>();
  };
  FixtureHost h;
  h.dir = dir;
  if (!j.is_object() || !j.contains("hostname") || !j.at("hostname").is_string() ||
      j.at("hostname").get<std::string>().empty())
    throw InputError(manifest + ": `hostname` (a non-empty string) is missing");
  h.hostname = j.at("hostname").get<std::string>();
  h.facts = doctor::load_facts_file(path_of("facts"));
  const std::string topology = path_of("topology");
  h.topology = topo::load_topology(topology);
  h.topology.source = topology;
  const std::string figures = path_of("figures");
  h.figures = bench::bench_document_from_json(read_json_file(figures), figures);
  return h;
}

}  // namespace p2p::cluster
