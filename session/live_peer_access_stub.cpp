// Built without CUDA: nobody can ask the driver, so the gate is not handed an answer.
#include "session/live_peer_access.hpp"

namespace p2p::session {

topo::PeerAccessCheck live_peer_access_check() { return {}; }

}  // namespace p2p::session
