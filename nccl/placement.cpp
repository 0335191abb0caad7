#include "nccl/placement.hpp"

#include "common/error.hpp"

namespace p2p::nccl {

RankPlacement place_ranks(int nranks, const std::vector<int>& devices) {
  if (nranks < 1)
    throw InputError("--ranks: " + std::to_string(nranks) + " is not a positive number of ranks");
  if (devices.empty()) throw InputError("--ranks: no device to place ranks on");
  RankPlacement p;
  p.nranks = nranks;
  p.devices = devices;
  const int d = static_cast<int>(devices.size());
  p.shares_device = nranks > d;
  for (int r = 0; r < nranks; ++r) {
    RankSlot s;
    s.rank = r;
    s.device = devices[static_cast<std::size_t>(r % d)];
    if (p.shares_device) s.host_id = "p2pcheck-host-" + std::to_string(r / d);
    p.ranks.push_back(s);
  }
  return p;
}

std::vector<int> rank_devices(const RankPlacement& p) {
  std::vector<int> out;
  for (const auto& s : p.ranks) out.push_back(s.device);
  return out;
}

}  // namespace p2p::nccl
