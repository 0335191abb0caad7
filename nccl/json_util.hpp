// Small helpers for the versioned JSON records of this module: a missing number is null,
// never a string, and a record of another schema version is rejected with a one-line error.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/error.hpp"

namespace p2p::nccl {

template <class T>
nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <class T>
std::optional<T> optional_from(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return v.get<T>();
}

// Throws InputError "<schema>: unsupported version N (expected M)" or a wrong-schema error.
inline void require_schema(const nlohmann::json& j, const std::string& schema, int version) {
  const std::string got = j.at("schema").get<std::string>();
  if (got != schema) throw InputError(schema + ": wrong record type `" + got + "`");
  const int v = j.at("version").get<int>();
  if (v != version) {
    throw InputError(schema + ": unsupported version " + std::to_string(v) + " (expected " +
                     std::to_string(version) + ")");
  }
}

}  // namespace p2p::nccl
