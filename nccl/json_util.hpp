// The module's JSON records follow the project-wide conventions in common/json_util.hpp, with
// the limits every document shares.
#pragma once

#include "common/json_util.hpp"
#include "document/json_limits.hpp"

namespace p2p::nccl {

using p2p::integer_at;
using p2p::kMaxDocumentBytes;
using p2p::optional_integer_at;
using p2p::optional_json;
using p2p::require_schema;
using p2p::value_at;

// What a document may say: the limits of document/json_limits.hpp, one set for every schema.
using doc::kMaxCount;
using doc::kMaxRanks;
using doc::optional_from;

}  // namespace p2p::nccl
