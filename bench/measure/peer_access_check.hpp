// The gate's `require_p2p` rule needs a live answer: can CUDA map each pair's memory? This is
// that answer, matched to the snapshot's GPUs by PCI bus id (CUDA ordinals change with
// CUDA_VISIBLE_DEVICES; bus ids do not).
#pragma once

#include "topology/gate.hpp"

namespace p2p::bench {

// cudaDeviceCanAccessPeer in both directions for every pair of snapshot GPUs CUDA can see; a
// GPU CUDA cannot see makes its pairs "not visible to CUDA" (no access).
topo::PeerAccessCheck cuda_peer_access_check();

}  // namespace p2p::bench
