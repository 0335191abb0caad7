// What each measured operation is and how nccl-tests turns a time into algbw and busbw:
// document/nccl_collective.hpp, where the views of a document find it too; named here as nccl/
// has always called it.
#pragma once

#include "document/nccl_collective.hpp"

namespace p2p::nccl {

using doc::algbw_gbps;
using doc::all_collectives;
using doc::bus_factor;
using doc::busbw_gbps;
using doc::Collective;
using doc::CollectiveShape;
using doc::parse_collective;
using doc::shape_of;
using doc::supports_in_place;
using doc::to_string;

}  // namespace p2p::nccl
