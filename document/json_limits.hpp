// What a document may say, beyond the project-wide conventions of common/json_util.hpp: every
// number read from a document is range-checked against these before use.
#pragma once

#include <optional>

#include "common/json_util.hpp"

namespace p2p::doc {

using p2p::bool_rows_at;
using p2p::integer_at;
using p2p::kMaxDocumentBytes;
using p2p::optional_integer_at;
using p2p::optional_json;
using p2p::require_schema;
using p2p::value_at;

// GPU ordinals and logical GPU ids.
constexpr int kMaxGpus = 4096;
// Rank counts and rank ids (ranks are local processes or GPUs).
constexpr int kMaxRanks = 4096;
// Counts: samples, copies, SMs, iterations, channels, NUMA nodes.
constexpr int kMaxCount = 1'000'000'000;

template <class T>
std::optional<T> optional_from(const nlohmann::json& j, const char* key) {
  return p2p::optional_at<T>(j, key);
}

}  // namespace p2p::doc
