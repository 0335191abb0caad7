// The documents' enum tables (outcome.cpp, verdict.cpp, ...) use the table helpers of
// common/enum_names.hpp, which the modules below document/ share.
#pragma once

#include "common/enum_names.hpp"

namespace p2p::doc {

using p2p::EnumNames;
using p2p::find_in;
using p2p::name_in;
using p2p::parse_in;
using p2p::parse_json_in;
using p2p::words_in;

}  // namespace p2p::doc
