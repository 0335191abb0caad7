// Where a transfer starts or ends: document/endpoint.hpp, where the views of a document find it
// too; named here as bench/ has always called it.
#pragma once

#include "document/endpoint.hpp"

namespace p2p::bench {

using doc::Endpoint;
using doc::endpoint_from_label;

}  // namespace p2p::bench
