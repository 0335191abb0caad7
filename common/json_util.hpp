// The conventions every versioned p2pcheck document follows, in one place: a missing number is
// `null` (never a string), each record names its `schema` and `version`, and a reader refuses
// any version other than the one it was written for, with one line saying which.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/error.hpp"

namespace p2p {

template <class T>
nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// A value read from a file, shown in an error message: at most 40 characters, and a string
// holding bytes that are not UTF-8 (a reader gives back the bytes json_text escaped) shown with
// U+FFFD instead of failing to print.
inline std::string shown_value(const nlohmann::json& v) {
  const std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// Sizes of copies and messages read from a document: 1 B .. 2^62 B. Sums, power-of-two axis
// labels and per-second rates over them must not overflow.
constexpr std::uint64_t kMaxDocumentBytes = std::uint64_t{1} << 62;

// Every number read from a document is range-checked before use: a document may come from
// anywhere, and nlohmann converts 1e300 to an int by a cast that is undefined behaviour, -1 to
// an unsigned by wrapping it. `v` as an integer T in lo..hi; InputError "`key`: expected an
// integer lo..hi, got 1.5" for anything else (a fraction, a string, a value out of range).
template <class T>
T checked_integer(const nlohmann::json& v, const std::string& key,
                  T lo = std::numeric_limits<T>::lowest(), T hi = std::numeric_limits<T>::max()) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  bool fits = false;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if constexpr (std::is_signed_v<T>) {
      fits = hi >= 0 && u <= static_cast<std::uint64_t>(hi) &&
             (lo <= 0 || u >= static_cast<std::uint64_t>(lo));
    } else {
      fits = u >= lo && u <= hi;
    }
  } else if (v.is_number_integer()) {  // signed: any parsed negative, or a value built in code
    const auto i = v.get<std::int64_t>();
    if constexpr (std::is_signed_v<T>) {
      fits = i >= lo && i <= hi;
    } else {
      fits = i >= 0 && static_cast<std::uint64_t>(i) >= lo && static_cast<std::uint64_t>(i) <= hi;
    }
  }
  if (!fits) {
    throw InputError("`" + key + "`: expected an integer " + std::to_string(lo) + ".." +
                     std::to_string(hi) + ", got " + shown_value(v));
  }
  return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                : static_cast<T>(v.get<std::int64_t>());
}

// The integer type inside T (int, std::vector<std::uint64_t>, std::map<std::string, int>,
// std::optional<int>), or void where T holds no integers.
template <class T, class = void>
struct IntegerLeaf {
  using type = void;
};
template <class T>
struct IntegerLeaf<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = T;
};
template <class T>
struct IntegerLeaf<std::vector<T>> : IntegerLeaf<T> {};
template <class K, class T>
struct IntegerLeaf<std::map<K, T>> : IntegerLeaf<T> {};
template <class T>
struct IntegerLeaf<std::optional<T>> : IntegerLeaf<T> {};

// Where T holds integers, every number inside `v` (at any depth) must be one that fits them, as
// checked_integer says; for other T nothing is checked (nlohmann's own type_error remains).
template <class T>
void check_integers_for(const nlohmann::json& v, const std::string& key) {
  using Leaf = typename IntegerLeaf<T>::type;
  if constexpr (!std::is_void_v<Leaf>) {
    if (v.is_number()) {
      checked_integer<Leaf>(v, key);
    } else if (v.is_structured()) {
      for (const auto& e : v) check_integers_for<T>(e, key);
    }
  }
}

// v.get<T>() with its integers checked first: what every reader of a document calls instead of
// a bare get<T>() where T holds integers.
template <class T>
T checked_get(const nlohmann::json& v, const std::string& key) {
  check_integers_for<T>(v, key);
  return v.get<T>();
}

// j.at(key) as T, integers checked (the whole range of their type).
template <class T>
T value_at(const nlohmann::json& j, const char* key) {
  return checked_get<T>(j.at(key), key);
}

// j.at(key) as an integer in lo..hi.
template <class T>
T integer_at(const nlohmann::json& j, const char* key, T lo, T hi) {
  return checked_integer<T>(j.at(key), key, lo, hi);
}

// j.at(key) as a list of integers, each in lo..hi.
template <class T>
std::vector<T> integers_at(const nlohmann::json& j, const char* key, T lo, T hi) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_array())
    throw InputError(std::string("`") + key + "`: expected a list of integers, got " +
                     v.type_name());
  std::vector<T> out;
  out.reserve(v.size());
  for (const auto& e : v) out.push_back(checked_integer<T>(e, key, lo, hi));
  return out;
}

// j.at(key) (so a missing key is an error), with null read as "no value"; integers checked as
// value_at checks them.
template <class T>
std::optional<T> optional_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return checked_get<T>(v, key);
}

// The same with the integer in lo..hi.
template <class T>
std::optional<T> optional_integer_at(const nlohmann::json& j, const char* key, T lo, T hi) {
  const nlohmann::json& v = j.at(key);
  if (v.is_null()) return std::nullopt;
  return checked_integer<T>(v, key, lo, hi);
}

// j.at(key) as rows of true/false (a matrix of yes/no per pair); InputError naming the key and
// the row that is not one.
inline std::vector<std::vector<bool>> bool_rows_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_array())
    throw InputError(std::string("`") + key + "`: expected rows of true/false, got " +
                     v.type_name());
  std::vector<std::vector<bool>> out;
  out.reserve(v.size());
  for (std::size_t r = 0; r < v.size(); ++r) {
    const nlohmann::json& row = v[r];
    const bool booleans = row.is_array() && std::all_of(row.begin(), row.end(), [](const auto& c) {
                            return c.is_boolean();
                          });
    if (!booleans)
      throw InputError(
          std::string("`") + key + "` row " + std::to_string(r) +
          ": expected an array of true/false, got " +
          (row.is_array() ? std::string("an array with other values") : row.type_name()));
    out.push_back(row.get<std::vector<bool>>());
  }
  return out;
}

inline void write_schema_header(nlohmann::json& j, const std::string& schema, int version) {
  j["schema"] = schema;
  j["version"] = version;
}

// InputError "schema `x` where `y` was expected" or "y version 2 is not supported (this
// p2pcheck reads version 1)".
inline void require_schema(const nlohmann::json& j, const std::string& schema, int version) {
  const auto got_schema = j.at("schema").get<std::string>();
  if (got_schema != schema)
    throw InputError("schema `" + got_schema + "` where `" + schema + "` was expected");
  const int got_version = value_at<int>(j, "version");
  if (got_version != version) {
    throw InputError(schema + " version " + std::to_string(got_version) +
                     " is not supported (this p2pcheck reads version " + std::to_string(version) +
                     ")");
  }
}

}  // namespace p2p
