// JSON text that never fails on the bytes inside its strings. Strings p2pcheck collects
// (environment variables, names read from sysfs or /proc under --root, file names) are bytes,
// and JSON text must be UTF-8: nlohmann refuses to write invalid UTF-8 ("type_error.316").
// Instead, each byte that is not part of a valid UTF-8 sequence is written as the four
// characters `\xNN` (NN: the byte in upper-case hex), and a backslash that the original already
// had in front of `x` and two hex digits is written `\x5C`, so the escaping is reversible:
// unescape_bytes() turns every `\xNN` back into its byte. A string that is valid UTF-8 is
// written unchanged. README.md ("Exit codes") documents it.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace p2p {

// `s` unchanged when valid UTF-8 without a literal `\xNN`; else escaped as above.
std::string escape_invalid_utf8(const std::string& s);
// The original bytes of an escaped string (every `\xNN` becomes byte NN).
std::string unescape_bytes(const std::string& s);
// Every string and key of `j` unescaped: what json_text wrote, read back as the bytes it held,
// so that writing it again gives the same text.
nlohmann::json unescaped_copy(const nlohmann::json& j);

// j.dump(indent), with every string and key escaped as above (most need nothing: then it is
// exactly j.dump(indent)).
std::string json_text(const nlohmann::json& j, int indent = 2);

// json_text of `head` with its top-level `key` set to an array of `count` items, each made by
// `item(i)` only when it is written: the same text as building the array first, without holding
// a million small JSON values at once (a 1,024-GPU comparison's 523,776 pair rows took 2.7 GB as
// values, against a 257 MB text). `head` must not hold `key`.
std::string json_text_with_array(nlohmann::json head, const std::string& key, std::size_t count,
                                 const std::function<nlohmann::json(std::size_t)>& item,
                                 int indent = 2);

}  // namespace p2p
