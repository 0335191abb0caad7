#include "document/data_type.hpp"

#include "common/error.hpp"

namespace p2p::doc {

const std::vector<DataType>& all_data_types() {
  static const std::vector<DataType> all = {DataType::kFloat32, DataType::kBfloat16,
                                            DataType::kFloat16};
  return all;
}

std::size_t element_bytes(DataType t) {
  switch (t) {
    case DataType::kFloat32: return 4;
    case DataType::kBfloat16:
    case DataType::kFloat16: return 2;
  }
  return 0;
}

std::string to_string(DataType t) {
  switch (t) {
    case DataType::kFloat32: return "float32";
    case DataType::kBfloat16: return "bfloat16";
    case DataType::kFloat16: return "float16";
  }
  return "?";
}

std::string nccl_tests_name(DataType t) {
  switch (t) {
    case DataType::kFloat32: return "float";
    case DataType::kBfloat16: return "bfloat16";
    case DataType::kFloat16: return "half";
  }
  return "?";
}

DataType parse_data_type(const std::string& name, const std::string& what) {
  if (name == "float32" || name == "float" || name == "fp32") return DataType::kFloat32;
  if (name == "bfloat16" || name == "bf16") return DataType::kBfloat16;
  if (name == "float16" || name == "half" || name == "fp16") return DataType::kFloat16;
  throw InputError(what + ": unknown data type `" + name +
                   "` (expected float32, bfloat16 or float16)");
}

}  // namespace p2p::doc
