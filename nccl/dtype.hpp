// Element types the collectives run on: document/data_type.hpp, where the documents that record
// them find them too; named here as nccl/ has always called them.
#pragma once

#include "document/data_type.hpp"

namespace p2p::nccl {

using doc::all_data_types;
using doc::DataType;
using doc::element_bytes;
using doc::nccl_tests_name;
using doc::parse_data_type;
using doc::to_string;

}  // namespace p2p::nccl
