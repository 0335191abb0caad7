#include "nccl/host_pairing.hpp"

#include <algorithm>

namespace p2p::nccl {

std::vector<std::vector<HostPair>> round_robin_rounds(int hosts) {
  std::vector<std::vector<HostPair>> rounds;
  if (hosts < 2) return rounds;
  // An odd count gets a phantom host: whoever is paired with it has the bye that round.
  const int slots = hosts + (hosts % 2);
  std::vector<int> ring;  // slots 1..slots-1 rotate; slot 0 is fixed
  for (int h = 1; h < slots; ++h) ring.push_back(h);
  for (int round = 0; round < slots - 1; ++round) {
    std::vector<int> seat = {0};
    seat.insert(seat.end(), ring.begin(), ring.end());
    std::vector<HostPair> pairs;
    for (int i = 0; i < slots / 2; ++i) {
      const int a = seat[static_cast<std::size_t>(i)];
      const int b = seat[static_cast<std::size_t>(slots - 1 - i)];
      if (a >= hosts || b >= hosts) continue;  // the bye
      pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::sort(pairs.begin(), pairs.end());
    rounds.push_back(std::move(pairs));
    std::rotate(ring.rbegin(), ring.rbegin() + 1, ring.rend());
  }
  return rounds;
}

}  // namespace p2p::nccl
