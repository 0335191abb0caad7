#include "session/live_peer_access.hpp"

#include "bench/measure/peer_access_check.hpp"

namespace p2p::session {

topo::PeerAccessCheck live_peer_access_check() { return bench::cuda_peer_access_check(); }

}  // namespace p2p::session
