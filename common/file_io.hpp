// Small file helpers with one-line, user-facing errors. Readers are bounded: a path that is a
// device (/dev/zero), a directory or a FIFO nobody writes to gives an error or an empty read,
// never unbounded memory or a hang. Writers are atomic: the content goes to a fresh temporary
// file beside the target (O_EXCL, so nothing planted at its name is followed) and is renamed
// over it, so a crash or a full disk never leaves a half-written result behind.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace p2p {

// What an input file may hold at most: the largest real inputs (NCCL logs of many ranks,
// results documents of 8-GPU sweeps) are tens of MiB.
constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;
// JSON inputs nested deeper than this are refused: no document of ours nests beyond about 8,
// and reading, printing or freeing a deeper one recurses once per level.
constexpr int kMaxJsonDepth = 128;

// Whole file as a string. Regular files and pipes (`<(cmd)`, a FIFO) are read, a pipe until its
// writer closes it (an error when it stays silent for 30 s); anything else is refused. InputError
// "PATH: <problem>" when missing, unreadable, a directory or device, or larger than max_bytes.
std::string read_text_file(const std::string& path, std::size_t max_bytes = kMaxInputBytes);

// Same, but returns nullopt where the file is absent or unreadable (for /proc and /sys probes).
// Never blocks: a FIFO is read without waiting for a writer.
std::optional<std::string> try_read_text_file(const std::string& path,
                                              std::size_t max_bytes = kMaxInputBytes);

// Parsed JSON; InputError "PATH: not valid JSON: <parser message>" on syntax errors, on numbers
// out of range and on nesting deeper than kMaxJsonDepth.
nlohmann::json read_json_file(const std::string& path);
// The same for text already read (`source` names it in the error).
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// Writes atomically (temp + fsync + rename). "-" means standard output. A symbolic link is
// followed (its target is replaced, as a shell's `>` would write through it); a target that
// exists and is not a regular file (a device, a directory, a FIFO) is refused, so an output
// path of /dev/null can never turn into a file.
void write_text_file_atomically(const std::string& path, const std::string& content);

// True when both paths name one existing file (same device and inode, through links).
bool same_file(const std::string& a, const std::string& b);

}  // namespace p2p
