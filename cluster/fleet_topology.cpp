#include "cluster/fleet_topology.hpp"

#include <map>

#include "topology/classify.hpp"
#include "topology/diff.hpp"  // pair_name

namespace p2p::cluster {
namespace {

// What "the same pair classes" means: the matrix `nvidia-smi topo -m` would print (NV<n> or the
// PCIe class per pair). Bus ids are not part of it: they differ from host to host.
using ClassMatrix = std::vector<std::vector<std::string>>;

HostTopology compare(const topo::TopologySnapshot& reference, const topo::TopologySnapshot& host) {
  HostTopology h;
  if (reference.gpus.size() != host.gpus.size()) {
    h.match = doc::TopologyMatch::kDiffers;
    h.differences.push_back(std::to_string(host.gpus.size()) + " GPUs where the reference has " +
                            std::to_string(reference.gpus.size()));
    return h;
  }
  // GPUs by position (PCI bus id order): bus ids differ from host to host of one model.
  const ClassMatrix want = topo::display_matrix(reference), got = topo::display_matrix(host);
  for (std::size_t a = 0; a < want.size(); ++a) {
    for (std::size_t b = a + 1; b < want.size(); ++b) {
      if (want[a][b] == got[a][b]) continue;
      h.differences.push_back(topo::pair_name(a, b) + " " + got[a][b] +
                              " where the reference has " + want[a][b]);
    }
  }
  h.match = h.differences.empty() ? doc::TopologyMatch::kSame : doc::TopologyMatch::kDiffers;
  return h;
}

}  // namespace

FleetTopology judge_fleet_topology(const std::vector<HostRun>& hosts,
                                   const std::optional<topo::TopologySnapshot>& golden,
                                   const std::string& golden_source) {
  FleetTopology fleet;
  fleet.hosts.resize(hosts.size());
  const topo::TopologySnapshot* reference = golden ? &*golden : nullptr;
  if (golden) {
    fleet.reference = "golden " + golden_source;
  } else {
    // Group the hosts that reported a topology by their class matrix; the largest group wins.
    std::map<ClassMatrix, std::vector<std::size_t>> groups;
    std::size_t voters = 0;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      if (!hosts[i].topology) continue;
      groups[topo::display_matrix(*hosts[i].topology)].push_back(i);
      ++voters;
    }
    std::size_t best = 0, ties = 0;
    for (const auto& [matrix, members] : groups) {
      if (members.size() > best) {
        best = members.size();
        ties = 1;
        reference = &*hosts[members.front()].topology;
      } else if (members.size() == best) {
        ++ties;
      }
    }
    if (voters == 0) {
      fleet.reference = "none: no host reported its topology";
      reference = nullptr;
    } else if (ties > 1) {
      fleet.ambiguous = true;
      fleet.reference = "none: " + std::to_string(ties) + " topologies with " +
                        std::to_string(best) + " host(s) each, no majority (give --expect)";
      reference = nullptr;
    } else {
      fleet.reference =
          "majority (" + std::to_string(best) + " of " + std::to_string(voters) + " hosts)";
    }
  }
  if (reference == nullptr) return fleet;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (hosts[i].topology) fleet.hosts[i] = compare(*reference, *hosts[i].topology);
  }
  return fleet;
}

}  // namespace p2p::cluster
