// JSON text that never fails on the bytes inside its strings. Strings p2pcheck collects
// (environment variables, names read from sysfs or /proc under --root, file names) are bytes,
// and JSON text must be UTF-8: nlohmann refuses to write invalid UTF-8 ("type_error.316").
// Instead, each byte that is not part of a valid UTF-8 sequence is written as the four
// characters `\xNN` (NN: the byte in upper-case hex), and a backslash that the original already
// had in front of `x` and two hex digits is written `\x5C`, so the escaping is reversible:
// unescape_bytes() turns every `\xNN` back into its byte. A string that is valid UTF-8 is
// written unchanged. README.md ("Exit codes") documents it.
#pragma once

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

}  // namespace p2p
