// The module's JSON records follow the project-wide conventions in common/json_util.hpp.
#pragma once

#include "common/json_util.hpp"

namespace p2p::nccl {

using p2p::optional_json;
using p2p::require_schema;

template <class T>
std::optional<T> optional_from(const nlohmann::json& j, const char* key) {
  return p2p::optional_at<T>(j, key);
}

}  // namespace p2p::nccl
