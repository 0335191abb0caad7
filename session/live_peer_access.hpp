// CUDA's answer on peer access between this host's GPUs (cudaDeviceCanAccessPeer per pair),
// for the gate's require_p2p rule on the live host. In a build without CUDA it is empty: the
// rule stays recorded as still to be checked.
#pragma once

#include "topology/gate.hpp"

namespace p2p::session {

topo::PeerAccessCheck live_peer_access_check();

}  // namespace p2p::session
