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
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace p2p {

// What an input file may hold at most: the largest real inputs (NCCL logs of many ranks,
// results documents of 8-GPU sweeps) are tens of MiB.
constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;
// JSON inputs nested deeper than this are refused: no document of ours nests beyond about 8,
// and reading, printing or freeing a deeper one recurses once per level.
constexpr int kMaxJsonDepth = 128;

// Whole file as a string. Regular files and pipes (`<(cmd)`, a FIFO) are read, a pipe until its
// writer closes it (an error when it stays silent for 30 s); anything else is refused. InputError
// "PATH: <problem>" when missing, unreadable, a directory or device, or larger than max_bytes;
// IoError "PATH: read failed: <errno text>" when read() itself fails (EIO).
std::string read_text_file(const std::string& path, std::size_t max_bytes = kMaxInputBytes);

// Same, but returns nullopt where the file is absent or unreadable (for /proc and /sys probes).
// Never blocks: a FIFO is read without waiting for a writer.
std::optional<std::string> try_read_text_file(const std::string& path,
                                              std::size_t max_bytes = kMaxInputBytes);

// Parsed JSON; InputError "PATH: not valid JSON: <parser message>" on syntax errors, on numbers
// out of range and on nesting deeper than kMaxJsonDepth. Strings and keys come back as the bytes
// json_text() wrote (every `\xNN` it escaped becomes byte NN again).
nlohmann::json read_json_file(const std::string& path);
// The same for text already read (`source` names it in the error).
nlohmann::json parse_json_text(const std::string& text, const std::string& source);
// JSON text p2pcheck wrote itself (a probe child's output, a rank process's line, an MPI
// message), parsed as parse_json_text parses; a failure is std::runtime_error
// "<what>: not valid JSON: <parser message>", not InputError: text we wrote and cannot read
// back is a fault of the run (exit 4), not bad input.
nlohmann::json parse_own_json(const std::string& text, const std::string& what);

// nlohmann's messages start with "[json.exception.type_error.302] "; the readable tail, with the
// value's JSON pointer first where the library names it ("/bandwidth/0/median_gbps: type must be
// number, but is string").
// `with_pointer` false: a caller that names the key path itself (the strict readers) drops it.
std::string json_error_tail(const std::string& what, bool with_pointer = true);

// Parses `path` and hands the JSON to read(json); a parse error, an InputError from read() or a
// type error nlohmann raised inside it becomes one line: InputError "PATH: <problem>". The one
// way a JSON file is read into a value (strict readers: common/strict_json.hpp).
template <class Read>
auto load_json_file(const std::string& path, Read read)
    -> decltype(read(std::declval<const nlohmann::json&>())) {
  const nlohmann::json j = read_json_file(path);  // "PATH: not valid JSON: ..." already
  try {
    return read(j);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": " + json_error_tail(e.what()));
  }
}

// Writes atomically (temp + fsync + rename). "-" means standard output. A symbolic link is
// followed (its target is replaced, as a shell's `>` would write through it). A character device
// (/dev/null, /dev/full) or a pipe is written into, never replaced; a directory or anything else
// that is not a regular file is refused (InputError), as is a directory that does not exist.
// The temporary file is removed on every way out, a signal that ends the process included
// (common/pending_temp_file.hpp). A failed write (a full disk, a read-only directory, EIO, a
// closed pipe) is IoError "PATH: write failed: <errno text>" (exit 4).
void write_text_file_atomically(const std::string& path, const std::string& content);

// The outputs of one command, replaced together: each regular file is written to its temporary
// and synced, and only when every one is complete are they renamed into place, so a failure
// (a full disk, an unwritable directory, a signal) leaves every old file as it was, never a
// new --json beside an old --junit. Standard output, devices and pipes are written after the
// files. An empty path is skipped; other rules as write_text_file_atomically.
struct FileToWrite {
  std::string path;
  std::string content;
};
void write_text_files_atomically(const std::vector<FileToWrite>& files);

// True when both paths name one existing file (same device and inode, through links).
bool same_file(const std::string& a, const std::string& b);

// dirname(3) and basename(3) of a path, without touching the caller's string.
std::string directory_of(const std::string& path);
std::string base_of(const std::string& path);

}  // namespace p2p
