// What the two readers of nvbandwidth output (the text of nvbandwidth.cpp, the JSON of
// nvbandwidth_json.cpp) share: their error, the unit and shape of a matrix from its title, and
// the largest buffer size they accept.
#pragma once

#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "import/nvbandwidth.hpp"

namespace p2p::import {

// InputError "<source>: not nvbandwidth output: <why>".
InputError not_nvbandwidth(const std::string& source, const std::string& why);

// "ns" for a latency matrix ("... (ns)"), else "GB/s".
std::string unit_of(const std::string& description);

// Rows expected for a matrix: host rows and local copies have one, GPU rows one per GPU column.
bool has_gpu_rows(const std::string& description);

// The largest copy size (MiB) read as nvbandwidth's buffer size: 10 TiB.
constexpr std::uint64_t kMaxBufferMib = 10'000'000;

// The JSON of `nvbandwidth -j` (v0.5 and later), BOM already removed; nlohmann::json::exception
// for a value of the wrong type, which the caller words.
NvbandwidthOutput parse_nvbandwidth_json(const std::string& text, const std::string& source);

}  // namespace p2p::import
