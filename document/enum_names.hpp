// One table per enum of the documents: the enum value and the word a document spells it with.
// Text, JSON and parsing all go through the table, so a word exists in exactly one place and an
// unknown word is refused with the words that are known.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace p2p::doc {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<E, const char*>, N>;

template <class E, std::size_t N>
const char* name_in(const EnumNames<E, N>& names, E value) {
  for (const auto& [e, word] : names)
    if (e == value) return word;
  return "?";
}

// InputError "`what`: unknown value `word` (known: a, b, c)".
template <class E, std::size_t N>
E parse_in(const EnumNames<E, N>& names, const std::string& word, const std::string& what) {
  std::string known;
  for (const auto& [e, name] : names) {
    if (word == name) return e;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  throw InputError("`" + what + "`: unknown value `" + word + "` (known: " + known + ")");
}

template <class E, std::size_t N>
E parse_json_in(const EnumNames<E, N>& names, const nlohmann::json& j, const std::string& what) {
  if (!j.is_string()) throw InputError("`" + what + "`: expected a string, got " + j.type_name());
  return parse_in(names, j.get<std::string>(), what);
}

}  // namespace p2p::doc
