// The host-pair schedule: every pair of hosts meets exactly once, in N-1 rounds (N rounds for
// an odd N, where each round one host sits out), and in each round every host meets at most
// one other, so all the pairs of a round run at the same time without sharing a host. A slow
// link or NIC then shows as one row and column of the host-pair matrix, and a full matrix
// costs N-1 rounds instead of N(N-1)/2 one-at-a-time pairs. The circle method: host 0 stays,
// the others rotate one place per round. Pure.
#pragma once

#include <utility>
#include <vector>

namespace p2p::nccl {

using HostPair = std::pair<int, int>;  // (lower host index, higher host index)

// Rounds for `hosts` hosts (0 or 1 host: no round). Each pair is ordered (a < b), each round
// sorted by its first host.
std::vector<std::vector<HostPair>> round_robin_rounds(int hosts);

}  // namespace p2p::nccl
