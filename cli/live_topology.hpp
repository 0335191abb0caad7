// The live topology lives in session/live_topology.hpp; named here for the subcommands that
// read it from cli/.
#pragma once

#include "session/live_topology.hpp"

namespace p2p::cli {

using session::live_topology;

}  // namespace p2p::cli
