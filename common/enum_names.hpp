// One table per enum: the enum value and the word text and JSON spell it with. Text, JSON and
// parsing all go through the table, so a word exists in exactly one place and an unknown word is
// refused with the words that are known.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace p2p {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<E, const char*>, N>;

template <class E, std::size_t N>
const char* name_in(const EnumNames<E, N>& names, E value) {
  for (const auto& [e, word] : names)
    if (e == value) return word;
  return "?";
}

// The value spelt `word`, or nullopt: for a reader that names a bad word in its own message.
template <class E, std::size_t N>
std::optional<E> find_in(const EnumNames<E, N>& names, const std::string& word) {
  for (const auto& [e, name] : names)
    if (word == name) return e;
  return std::nullopt;
}

// The known words in table order, "a, b, c" (or "a, b or c" with last_separator " or "); an
// empty word reads "empty".
template <class E, std::size_t N>
std::string words_in(const EnumNames<E, N>& names, const char* last_separator = ", ") {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? last_separator : ", ";
    const std::string word = names[i].second;
    out += word.empty() ? "empty" : word;
  }
  return out;
}

// InputError "`what`: unknown value `word` (known: a, b, c)".
template <class E, std::size_t N>
E parse_in(const EnumNames<E, N>& names, const std::string& word, const std::string& what) {
  if (const auto e = find_in(names, word)) return *e;
  throw InputError("`" + what + "`: unknown value `" + word + "` (known: " + words_in(names) + ")");
}

template <class E, std::size_t N>
E parse_json_in(const EnumNames<E, N>& names, const nlohmann::json& j, const std::string& what) {
  if (!j.is_string()) throw InputError("`" + what + "`: expected a string, got " + j.type_name());
  return parse_in(names, j.get<std::string>(), what);
}

}  // namespace p2p
