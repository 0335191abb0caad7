// The strict reader for JSON a person writes or edits (policy files, topology snapshots, facts
// files, fixture manifests): every key it is asked for must be there, keys it was never asked
// for are refused (a typo must be an error, not a setting silently left at its default), and
// every error is one line naming the key path ("cuda.devices[1]: key 'name' not found").
// load_json_file() (common/file_io.hpp) adds the file:
// "policy.json: min_link: unknown key 'gne' (known: gen, width)".
//
// Documents p2pcheck writes and reads back (results, reports) are read leniently instead, within
// their schema version: see doc::read_bench_document_file.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"

namespace p2p {

// `j` as T; InputError "<where>: <problem>" when it is not one (integers range-checked).
template <class T>
T strict_as(const nlohmann::json& j, const std::string& where) {
  check_integers_for<T>(j, where);  // 1e300 where an int belongs: bad input, not a cast that is UB
  try {
    return j.get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + ": " + json_error_tail(e.what(), false));
  }
}

// One JSON object, read key by key. `where` is the object's key path in its document ("" for the
// document itself). Call finish() after the last key: it refuses any key nobody asked for.
class StrictReader {
 public:
  StrictReader(const nlohmann::json& j, std::string where);

  // The key path of `key` inside this object ("cuda.devices[1].name").
  std::string path(const std::string& key) const;

  // A required key; InputError "<where>: key 'k' not found" when missing.
  const nlohmann::json& at(const std::string& key);

  template <class T>
  T get(const std::string& key) {
    return strict_as<T>(at(key), path(key));
  }

  template <class T>
  void get(const std::string& key, T& out) {
    out = get<T>(key);
  }

  // null -> nullopt; the key itself is still required.
  template <class T>
  void opt(const std::string& key, std::optional<T>& out) {
    const nlohmann::json& v = at(key);
    out = v.is_null() ? std::nullopt : std::optional<T>(strict_as<T>(v, path(key)));
  }

  // An optional key (or one added to a version after its first release): nullptr when absent.
  const nlohmann::json* find(const std::string& key);

  // As opt(), for such a key: missing reads as null.
  template <class T>
  void opt_later(const std::string& key, std::optional<T>& out) {
    const nlohmann::json* v = find(key);
    out =
        v == nullptr || v->is_null() ? std::nullopt : std::optional<T>(strict_as<T>(*v, path(key)));
  }

  // InputError "<where>: unknown key 'k' (known: a, b, c)" for the first key never asked for.
  void finish() const;

  // "<where>: <problem>" ("<problem>" for the document itself): the prefix every error here has.
  std::string error_at(const std::string& problem) const;

 private:
  void note(const std::string& key);

  const nlohmann::json& j_;
  std::string where_;
  std::vector<std::string> asked_;  // in the order the reader asked: the order of the schema
};

// `j` as a list, each item read by read_item(item, "<where>[i]").
template <class T, class Read>
std::vector<T> strict_list(const nlohmann::json& j, const std::string& where, Read read_item) {
  if (!j.is_array()) throw InputError(where + ": expected an array, got " + j.type_name());
  std::vector<T> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(read_item(j[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

}  // namespace p2p
