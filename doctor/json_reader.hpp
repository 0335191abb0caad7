// A strict reader for one JSON object of the facts file: every key it is asked for must be
// there, keys it was never asked for are refused (a typo in a hand-written fixture must not
// silently become "unknown"), and every error names the key path. Internal to p2p_doctor.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "common/error.hpp"
#include "common/json_util.hpp"

namespace p2p::doctor::json_io {

using json = nlohmann::json;

// nlohmann's messages start with "[json.exception.type_error.302] "; keep the readable tail.
inline std::string tail(const std::string& what) {
  const auto cut = what.find("] ");
  return cut == std::string::npos ? what : what.substr(cut + 2);
}

template <class T>
T as(const json& j, const std::string& where) {
  check_integers_for<T>(j, where);  // 1e300 where an int belongs: bad input, not a cast that is UB
  try {
    return j.get<T>();
  } catch (const json::exception& e) {
    throw InputError(where + ": " + tail(e.what()));
  }
}

class Reader {
 public:
  Reader(const json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) throw InputError(where_ + ": expected an object, got " + j_.type_name());
  }

  std::string path(const char* key) const { return where_.empty() ? key : where_ + "." + key; }

  const json& at(const char* key) {
    seen_.insert(key);
    const auto it = j_.find(key);
    if (it == j_.end())
      throw InputError((where_.empty() ? "facts" : where_) + ": key '" + key + "' not found");
    return *it;
  }

  template <class T>
  T get(const char* key) {
    return as<T>(at(key), path(key));
  }

  template <class T>
  void get(const char* key, T& out) {
    out = get<T>(key);
  }

  // null -> nullopt; the key itself is still required.
  template <class T>
  void opt(const char* key, std::optional<T>& out) {
    const json& v = at(key);
    if (v.is_null()) {
      out.reset();
    } else {
      out = as<T>(v, path(key));
    }
  }

  // A key added to version 1 after its first release: nullptr when the document predates it.
  const json* find(const char* key) {
    seen_.insert(key);
    const auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }

  // As opt(), for such a later key: missing reads as null.
  template <class T>
  void opt_later(const char* key, std::optional<T>& out) {
    const json* v = find(key);
    if (v == nullptr || v->is_null()) {
      out.reset();
    } else {
      out = as<T>(*v, path(key));
    }
  }

  void finish() const {
    for (auto it = j_.begin(); it != j_.end(); ++it) {
      if (seen_.count(it.key()) == 0)
        throw InputError((where_.empty() ? "facts" : where_) + ": unknown key '" + it.key() + "'");
    }
  }

 private:
  const json& j_;
  std::string where_;
  std::set<std::string> seen_;
};

template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace p2p::doctor::json_io
