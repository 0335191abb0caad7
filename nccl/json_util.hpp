// The module's JSON records follow the project-wide conventions in common/json_util.hpp.
#pragma once

#include "common/json_util.hpp"

namespace p2p::nccl {

using p2p::integer_at;
using p2p::kMaxDocumentBytes;
using p2p::optional_integer_at;
using p2p::optional_json;
using p2p::require_schema;
using p2p::value_at;

// What a document may say (checked_integer in common/json_util.hpp): rank counts and rank ids
// (ranks are local processes or GPUs), and counts of iterations, samples and channels.
constexpr int kMaxRanks = 4096;
constexpr int kMaxCount = 1'000'000'000;

template <class T>
std::optional<T> optional_from(const nlohmann::json& j, const char* key) {
  return p2p::optional_at<T>(j, key);
}

}  // namespace p2p::nccl
