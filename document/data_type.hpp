// Element types the collectives and infer's all-reduces run on. Pure names and sizes, kept with
// the documents that record them (a model's dtype in p2pcheck.infer); the mapping to
// ncclDataType_t lives with the NCCL calls (nccl/run/launch.cpp), so this stays free of NCCL and
// CUDA.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace p2p::doc {

enum class DataType { kFloat32, kBfloat16, kFloat16 };

const std::vector<DataType>& all_data_types();
std::size_t element_bytes(DataType t);
std::string to_string(DataType t);        // float32 | bfloat16 | float16 (JSON and options)
std::string nccl_tests_name(DataType t);  // float | bfloat16 | half (the table's `type` column)
// Accepts the names above and nccl-tests' spellings; InputError naming `what` otherwise.
DataType parse_data_type(const std::string& name, const std::string& what = "--dtypes");

}  // namespace p2p::doc
