// Small file helpers with one-line, user-facing errors. Writers are atomic: the content goes
// to a temporary file beside the target and is renamed over it, so a crash or a full disk
// never leaves a half-written result behind.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace p2p {

// Whole file as a string; InputError "PATH: cannot read: <strerror>" when missing/unreadable.
std::string read_text_file(const std::string& path);

// Same, but returns nullopt where the file is absent or unreadable (for /proc and /sys probes).
std::optional<std::string> try_read_text_file(const std::string& path);

// Parsed JSON; InputError "PATH: not valid JSON: <parser message>" on syntax errors.
nlohmann::json read_json_file(const std::string& path);

// Writes atomically (temp + fsync + rename). "-" means standard output.
void write_text_file_atomically(const std::string& path, const std::string& content);

}  // namespace p2p
