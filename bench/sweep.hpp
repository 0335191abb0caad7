// The message-size sweep summarised: document/sweep_summary.hpp, where the views of a document
// find it too; named here as bench/ has always called it.
#pragma once

#include "document/sweep_summary.hpp"

namespace p2p::bench {

using doc::smallest_size_reaching;
using doc::summarize_sweeps;
using doc::SweepPoint;

}  // namespace p2p::bench
