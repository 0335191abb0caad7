// The conventions every versioned p2pcheck document follows, in one place: a missing number is
// `null` (never a string), each record names its `schema` and `version`, and a reader refuses
// any version other than the one it was written for, with one line saying which.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/error.hpp"

namespace p2p {

template <class T>
nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// j.at(key) (so a missing key is an error), with null read as "no value".
template <class T>
std::optional<T> optional_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return v.get<T>();
}

inline void write_schema_header(nlohmann::json& j, const std::string& schema, int version) {
  j["schema"] = schema;
  j["version"] = version;
}

// InputError "schema `x` where `y` was expected" or "y version 2 is not supported (this
// p2pcheck reads version 1)".
inline void require_schema(const nlohmann::json& j, const std::string& schema, int version) {
  const auto got_schema = j.at("schema").get<std::string>();
  if (got_schema != schema) throw InputError("schema `" + got_schema + "` where `" + schema + "` was expected");
  const int got_version = j.at("version").get<int>();
  if (got_version != version) {
    throw InputError(schema + " version " + std::to_string(got_version) +
                     " is not supported (this p2pcheck reads version " + std::to_string(version) + ")");
  }
}

}  // namespace p2p
