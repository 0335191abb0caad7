#include "common/output_paths.hpp"

#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace p2p {

namespace {

using Kind = PathFacts::Kind;

std::string named(const RequestedOutput& o) { return o.option + " " + o.path; }

OutputProblem bad(const std::string& line) { return {line, false}; }

// How an output relates to the input it would replace, in words.
std::string relation(const PathFacts& out, const PathFacts& in, const std::string& out_path,
                     const std::string& in_path) {
  if (out_path == in_path) return "is";
  if (out.is_symlink || in.is_symlink) return "is a symbolic link to";
  if (!out.canonical.empty() && out.canonical == in.canonical) return "is";
  return "is a hard link to";
}

// Empty paths, `-` where it is not offered or is taken: what needs no file system.
std::optional<OutputProblem> stdout_problem(const OutputRequest& r) {
  const RequestedOutput* first_stdout = nullptr;
  for (const auto& o : r.outputs) {
    if (o.path.empty()) return bad(o.option + ": the path is empty; give a file");
    if (o.path != "-") continue;
    if (!o.stdout_offered)
      return bad(o.option +
                 " -: standard output is not offered here (the command prints its "
                 "own text there); give a file");
    if (!r.stdout_owner.empty())
      return bad(o.option + " -: standard output already carries " + r.stdout_owner +
                 "; give a file");
    if (first_stdout != nullptr)
      return bad(first_stdout->option + " - and " + o.option +
                 " -: at most one output may be standard output; give the other a file");
    first_stdout = &o;
  }
  return std::nullopt;
}

// The output itself: a directory, a missing directory, one the process may not write.
std::optional<OutputProblem> place_problem(const RequestedOutput& o, const PathFacts& f) {
  if (f.kind == Kind::kDirectory) return bad(named(o) + ": is a directory; give a file");
  if (!f.directory_problem.empty()) return bad(named(o) + ": " + f.directory_problem);
  if (!f.write_problem.empty())
    return OutputProblem{named(o) + ": cannot write: " + f.write_problem, true};
  return std::nullopt;
}

}  // namespace

std::optional<OutputProblem> output_path_problem(
    const OutputRequest& r, const std::function<PathFacts(const std::string&)>& facts_of) {
  if (auto p = stdout_problem(r)) return p;
  std::map<std::string, PathFacts> inputs;  // input path -> facts, for the inputs that exist
  for (const auto& in : r.inputs) {
    if (in.path.empty() || inputs.count(in.path) > 0) continue;
    PathFacts f = facts_of(in.path);
    if (f.kind != Kind::kMissing && !f.key.empty()) inputs.emplace(in.path, std::move(f));
  }
  std::vector<std::pair<const RequestedOutput*, PathFacts>> seen;
  for (const auto& o : r.outputs) {
    if (o.path == "-") continue;
    const PathFacts f = facts_of(o.path);
    for (const auto& in : r.inputs) {
      const auto it = inputs.find(in.path);
      if (it == inputs.end() || it->second.key != f.key) continue;
      return bad(named(o) + ": " + relation(f, it->second, o.path, in.path) + " the input " +
                 in.path + (in.option.empty() ? "" : " (" + in.option + ")") +
                 "; refusing to overwrite an input");
    }
    for (const auto& [other, other_facts] : seen) {
      if (!f.key.empty() && other_facts.key == f.key)
        return bad(other->option + " and " + o.option + " both name " + o.path +
                   "; give each output its own file");
    }
    if (auto p = place_problem(o, f)) return p;
    seen.emplace_back(&o, f);
  }
  return std::nullopt;
}

void add_output(OutputRequest& r, const std::string& option, const std::string& path,
                bool stdout_offered) {
  if (!path.empty()) r.outputs.push_back({option, path, stdout_offered});
}

void add_input(OutputRequest& r, const std::string& option, const std::string& path) {
  if (!path.empty()) r.inputs.push_back({option, path});
}

void add_inputs(OutputRequest& r, const std::string& option,
                const std::vector<std::string>& paths) {
  for (const auto& p : paths) add_input(r, option, p);
}

bool output_takes_stdout(const OutputRequest& r) {
  for (const auto& o : r.outputs)
    if (o.path == "-") return true;
  return false;
}

namespace {

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) != nullptr ? std::string(buf) : std::string();
}

std::string inode_key(const struct stat& st) {
  return "inode:" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

// Where a file that does not exist yet would be made: its directory's inode and its name.
void describe_missing(const std::string& path, PathFacts& f) {
  // A dangling symbolic link is written through to its target, so the target's place counts.
  std::string target = path;
  std::vector<char> link(PATH_MAX);
  const ssize_t n = ::readlink(path.c_str(), link.data(), link.size() - 1);
  if (n > 0) {
    const std::string t(link.data(), static_cast<std::size_t>(n));
    target = t[0] == '/' ? t : directory_of(path) + "/" + t;
  }
  const std::string dir = directory_of(target);
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode)) {
    f.directory_problem = "the directory " + dir + " does not exist";
    return;
  }
  f.key = inode_key(ds) + "/" + base_of(target);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) f.write_problem = std::strerror(errno);
}

}  // namespace

PathFacts path_facts(const std::string& path) {
  PathFacts f;
  struct stat ls {};
  f.is_symlink = ::lstat(path.c_str(), &ls) == 0 && S_ISLNK(ls.st_mode);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    describe_missing(path, f);
    return f;
  }
  f.key = inode_key(st);
  f.canonical = real_path(path);
  if (S_ISDIR(st.st_mode)) {
    f.kind = Kind::kDirectory;
    return f;
  }
  f.kind = S_ISREG(st.st_mode) ? Kind::kFile : Kind::kStream;
  if (::access(path.c_str(), W_OK) != 0) {
    f.write_problem = std::strerror(errno);
  } else if (f.kind == Kind::kFile) {
    // A regular file is replaced by a new one made beside it: its directory must take it.
    const std::string dir = directory_of(f.canonical.empty() ? path : f.canonical);
    if (::access(dir.c_str(), W_OK | X_OK) != 0) f.write_problem = std::strerror(errno);
  }
  return f;
}

void check_output_paths(const OutputRequest& request) {
  const std::optional<OutputProblem> p = output_path_problem(request, path_facts);
  if (!p) return;
  if (p->io_error) throw IoError(p->line);
  throw InputError(p->line);
}

}  // namespace p2p
