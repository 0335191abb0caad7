#include "common/json_text.hpp"

#include <cstdint>

namespace p2p {

namespace {

using Byte = unsigned char;

// Length of the valid UTF-8 sequence at s[i] (1 to 4), or 0 where the byte starts none: the
// strict rules of Unicode 15, table 3-7 (no overlong forms, no surrogates, nothing past
// U+10FFFF), which are also the rules nlohmann checks when it writes.
std::size_t valid_sequence(const std::string& s, std::size_t i) {
  const auto at = [&](std::size_t k) { return k < s.size() ? static_cast<Byte>(s[k]) : Byte{0}; };
  const Byte b = at(i);
  const auto cont = [&](std::size_t k, Byte lo = 0x80, Byte hi = 0xBF) {
    return at(k) >= lo && at(k) <= hi && k < s.size();
  };
  if (b <= 0x7F) return 1;
  if (b >= 0xC2 && b <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b == 0xE0) return cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;
  if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (b == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
  if (b == 0xF0) return cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b >= 0xF1 && b <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

int hex_value(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

// `\xNN` at s[i]: what the escaping writes, and so what an original must not be mistaken for.
bool escape_at(const std::string& s, std::size_t i) {
  return i + 3 < s.size() && s[i] == '\\' && s[i + 1] == 'x' && is_hex(s[i + 2]) &&
         is_hex(s[i + 3]);
}

void append_escape(std::string& out, Byte b) {
  static const char kHex[] = "0123456789ABCDEF";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xF];
}

bool needs_escaping(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = valid_sequence(s, i);
    if (n == 0 || escape_at(s, i)) return true;
    i += n;
  }
  return false;
}

bool any_needs_escaping(const nlohmann::json& j) {
  if (j.is_string()) return needs_escaping(j.get_ref<const std::string&>());
  if (j.is_array()) {
    for (const auto& e : j)
      if (any_needs_escaping(e)) return true;
  }
  if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      if (needs_escaping(key) || any_needs_escaping(value)) return true;
  }
  return false;
}

// A copy of `j` with `f` applied to every string and every key: the one walk that writing
// (escape) and reading (unescape) share.
nlohmann::json with_strings(const nlohmann::json& j, std::string (*f)(const std::string&)) {
  if (j.is_string()) return f(j.get_ref<const std::string&>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : j) out.push_back(with_strings(e, f));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) out[f(key)] = with_strings(value, f);
    return out;
  }
  return j;
}

}  // namespace

std::string escape_invalid_utf8(const std::string& s) {
  if (!needs_escaping(s)) return s;
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    if (escape_at(s, i)) {
      append_escape(out, '\\');  // the original's own "\xNN" text: its backslash escaped
      ++i;
      continue;
    }
    const std::size_t n = valid_sequence(s, i);
    if (n == 0) {
      append_escape(out, static_cast<Byte>(s[i]));
      ++i;
      continue;
    }
    out.append(s, i, n);
    i += n;
  }
  return out;
}

std::string unescape_bytes(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (escape_at(s, i)) {
      out += static_cast<char>(hex_value(s[i + 2]) * 16 + hex_value(s[i + 3]));
      i += 4;
    } else {
      out += s[i++];
    }
  }
  return out;
}

nlohmann::json unescaped_copy(const nlohmann::json& j) { return with_strings(j, unescape_bytes); }

std::string json_text(const nlohmann::json& j, int indent) {
  // Every string follows the rule, whether or not another string of the document needed it,
  // so a reader can always unescape.
  return any_needs_escaping(j) ? with_strings(j, escape_invalid_utf8).dump(indent) : j.dump(indent);
}

std::string json_text_with_array(nlohmann::json head, const std::string& key, std::size_t count,
                                 const std::function<nlohmann::json(std::size_t)>& item,
                                 int indent) {
  // The key's value is first written as a marker no string of p2pcheck holds (raw control bytes,
  // which dump() writes as \u0001), then the marker is replaced by the items, each indented two
  // levels as dump() would have.
  head[key] =
      "\x01"
      "array"
      "\x01";
  const std::string text = json_text(head, indent);
  const std::string quoted = "\"\\u0001array\\u0001\"";
  const std::size_t at = text.find(quoted);
  std::string out = text.substr(0, at);
  if (count == 0) {
    out += "[]";
  } else {
    const bool lines = indent >= 0;
    const std::string pad(lines ? static_cast<std::size_t>(indent) : 0, ' ');
    out += lines ? "[\n" : "[";
    for (std::size_t i = 0; i < count; ++i) {
      out += pad + pad;
      for (char c : json_text(item(i), indent)) {
        out.push_back(c);
        if (c == '\n') out += pad + pad;
      }
      if (i + 1 < count) out += ",";
      if (lines) out += "\n";
    }
    out += pad + "]";
  }
  out.append(text, at + quoted.size(), std::string::npos);
  return out;
}

}  // namespace p2p
