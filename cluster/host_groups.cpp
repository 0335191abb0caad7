#include "cluster/host_groups.hpp"

#include <map>

namespace p2p::cluster {

std::vector<int> host_leaders(const std::vector<std::string>& rank_hosts) {
  std::map<std::string, int> first;
  std::vector<int> leader(rank_hosts.size());
  for (std::size_t r = 0; r < rank_hosts.size(); ++r) {
    const int rank = static_cast<int>(r);
    leader[r] = rank_hosts[r].empty() ? rank : first.emplace(rank_hosts[r], rank).first->second;
  }
  return leader;
}

}  // namespace p2p::cluster
