// One output policy for every command, checked before anything is read or written:
// - every output path is compared with every input path: the same file, a hard link to it or a
//   symbolic link to it is refused (an output never destroys an input);
// - two outputs never name one file;
// - `-` is standard output for at most one output, never where the command prints its own
//   machine-readable output there (--format json), and only where the command offers it;
// - an empty path, a directory, a directory that does not exist is bad input (exit 2);
// - a directory or file the process may not write is an I/O error (exit 4), said before the work.
// Nothing is created or truncated here; the writers (common/file_io.hpp, json_lines.hpp) write
// only once the inputs are read. The check itself is a pure function of what the file system
// says about each path (output_path_problem), and check_output_paths asks the file system.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace p2p {

// A path the command was given, with the option that named it ("--json", "FILE").
struct NamedPath {
  std::string option;
  std::string path;
};

struct RequestedOutput {
  std::string option;          // "--junit"
  std::string path;            // as given; "-" is standard output
  bool stdout_offered = true;  // false where the command cannot move its own text aside
};

struct OutputRequest {
  std::vector<RequestedOutput> outputs;  // the output options given (an empty path included)
  std::vector<NamedPath> inputs;         // the input files given
  std::string stdout_owner;  // what already writes machine-readable text on stdout, or ""
};

// What the file system says of one path, as the pure check needs it.
struct PathFacts {
  enum class Kind { kMissing, kFile, kDirectory, kStream };  // kStream: a device or a pipe
  Kind kind = Kind::kMissing;
  std::string key;        // equal keys: one file (device and inode, or where it would be made)
  std::string canonical;  // the path with every link resolved ("" when it cannot be)
  bool is_symlink = false;
  std::string directory_problem;  // the parent is not a directory: "" when it is
  std::string write_problem;      // errno text when the process may not write it: "" when it may
};

struct OutputProblem {
  std::string line;       // one line naming the option, the path and the problem
  bool io_error = false;  // the system's (exit 4), not the user's (exit 2)
};

// Builders for a command's request: a path that is "" (the option was not given) is left out;
// an option given with an empty path is refused by the command line's own validator.
void add_output(OutputRequest& r, const std::string& option, const std::string& path,
                bool stdout_offered = true);
void add_input(OutputRequest& r, const std::string& option, const std::string& path);
void add_inputs(OutputRequest& r, const std::string& option, const std::vector<std::string>& paths);

// Pure: the first problem of the request, nullopt when every output may be written.
std::optional<OutputProblem> output_path_problem(
    const OutputRequest& request, const std::function<PathFacts(const std::string&)>& facts_of);

// What stat(), lstat(), realpath() and access() say of `path`.
PathFacts path_facts(const std::string& path);

// The check against the real file system: InputError (exit 2) or IoError (exit 4) for the first
// problem. Call it before reading any input.
void check_output_paths(const OutputRequest& request);

// True when one of the outputs is standard output: the command's text for people then goes to
// standard error.
bool output_takes_stdout(const OutputRequest& request);

}  // namespace p2p
