#include "common/strict_json.hpp"

#include <algorithm>

namespace p2p {

StrictReader::StrictReader(const nlohmann::json& j, std::string where)
    : j_(j), where_(std::move(where)) {
  if (!j_.is_object())
    throw InputError(error_at(std::string("expected an object, got ") + j_.type_name()));
}

std::string StrictReader::path(const std::string& key) const {
  return where_.empty() ? key : where_ + "." + key;
}

std::string StrictReader::error_at(const std::string& problem) const {
  return where_.empty() ? problem : where_ + ": " + problem;
}

void StrictReader::note(const std::string& key) {
  if (std::find(asked_.begin(), asked_.end(), key) == asked_.end()) asked_.push_back(key);
}

const nlohmann::json& StrictReader::at(const std::string& key) {
  note(key);
  const auto it = j_.find(key);
  if (it == j_.end()) throw InputError(error_at("key '" + key + "' not found"));
  return *it;
}

const nlohmann::json* StrictReader::find(const std::string& key) {
  note(key);
  const auto it = j_.find(key);
  return it == j_.end() ? nullptr : &*it;
}

void StrictReader::finish() const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (std::find(asked_.begin(), asked_.end(), it.key()) != asked_.end()) continue;
    std::string known;
    for (const auto& k : asked_) known += (known.empty() ? "" : ", ") + k;
    throw InputError(error_at("unknown key '" + it.key() + "' (known: " + known + ")"));
  }
}

}  // namespace p2p
