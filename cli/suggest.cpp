#include "cli/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "common/text.hpp"

namespace p2p::cli {
namespace {

std::string without_dashes(const std::string& name) {
  const std::size_t start = name.find_first_not_of('-');
  return start == std::string::npos ? std::string() : name.substr(start);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// "-5", "-0.25": a negative number is a value, not an option.
bool is_option_like(const std::string& arg) {
  if (arg.size() < 2 || arg.front() != '-') return false;
  char* end = nullptr;
  std::strtod(arg.c_str(), &end);
  return end != arg.c_str() + arg.size();
}

bool visible(const CLI::App& app) { return !app.get_group().empty(); }

const CLI::App* subcommand_named(const CLI::App& app, const std::string& name) {
  const auto found =
      app.get_subcommands([&name](const CLI::App* s) { return s->check_name(name); });
  return found.empty() ? nullptr : found.front();
}

std::vector<std::string> visible_subcommands(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* s : app.get_subcommands(
           [](const CLI::App* s) { return !s->get_name().empty() && visible(*s); })) {
    names.push_back(s->get_name());
  }
  return names;
}

// A word here can only be a command: the app has commands below it and takes no positionals.
bool takes_command(const CLI::App& app) {
  const auto positionals =
      app.get_options([](const CLI::Option* o) { return !o->nonpositional(); });
  return positionals.empty() && !visible_subcommands(app).empty();
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string spaced(const std::string& path, const std::string& word) {
  if (path.empty() || word.empty()) return path + word;
  return path + " " + word;
}

std::string unknown_command(const CLI::App& app, const std::string& path, const std::string& word) {
  const auto guess = closest(word, visible_subcommands(app));
  std::string line = "unknown command '" + spaced(path, word) + "'";
  if (guess) return line + "; did you mean '" + spaced(path, *guess) + "'?";
  return line + " (" + spaced("p2pcheck", path) + " --help lists the commands)";
}

std::string unknown_option(const CLI::App& app, const std::string& path, const std::string& name) {
  std::vector<std::string> names;
  for (const CLI::Option* o :
       app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  const auto guess = closest(name, names);
  std::string line = (path.empty() ? "" : path + ": ") + "unknown option '" + name + "'";
  if (guess) return line + "; did you mean '" + *guess + "'?";
  return line + " (" + spaced("p2pcheck", path) + " --help lists the options" +
         (app.get_allow_extras()
              ? "; Google Benchmark's flags are passed as --benchmark_NAME=VALUE)"
              : ")");
}

// The option `arg` names ("--json", "--json=x", "-b", "-b8"), or nullptr.
const CLI::Option* option_named(const CLI::App& app, const std::string& arg) {
  const CLI::Option* opt = app.get_option_no_throw(arg.substr(0, arg.find('=')));
  if (opt == nullptr && arg[1] != '-' && arg.size() > 2)
    opt = app.get_option_no_throw(arg.substr(0, 2));
  return opt;
}

// How many of the arguments after args[i] are values of the option it names: as CLI11 reads
// them, up to the next option or command word.
std::size_t values_taken(const CLI::App& app, const CLI::Option& opt,
                         const std::vector<std::string>& args, std::size_t i) {
  const bool attached =
      args[i].find('=') != std::string::npos || (args[i][1] != '-' && args[i].size() > 2);
  if (opt.get_type_size() == 0 || attached) return 0;
  std::size_t n = 0;
  const auto most = static_cast<std::size_t>(std::max(opt.get_expected_max(), 1));
  for (std::size_t j = i + 1; n < most && j < args.size(); ++j, ++n) {
    if (is_option_like(args[j]) || (n > 0 && subcommand_named(app, args[j]) != nullptr)) break;
  }
  return n;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: Levenshtein plus the swap of two neighbours.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest(const std::string& typed,
                                   const std::vector<std::string>& candidates) {
  const std::string core = ascii_lower(without_dashes(typed));
  if (core.empty()) return std::nullopt;
  const std::size_t allowed = std::clamp<std::size_t>(core.size() / 3, 1, 2);
  std::optional<std::string> best, only_prefix;
  std::size_t best_d = allowed + 1, ties = 0, prefixes = 0;
  for (const auto& c : candidates) {
    const std::string other = ascii_lower(without_dashes(c));
    const std::size_t d = edit_distance(core, other);
    if (d < best_d) {
      best_d = d;
      best = c;
      ties = 0;
    } else if (d == best_d) {
      ++ties;
    }
    if (core.size() >= 2 && starts_with(other, core)) {
      ++prefixes;
      only_prefix = c;
    }
  }
  if (best && ties == 0 && best_d < core.size()) return best;
  if (prefixes == 1) return only_prefix;
  return std::nullopt;
}

std::optional<std::string> mistake_in(const CLI::App& root, const std::vector<std::string>& args) {
  const CLI::App* app = &root;
  std::string path;
  bool command_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (is_option_like(arg)) {
      const CLI::Option* opt = option_named(*app, arg);
      if (opt == nullptr) {
        if (app->get_allow_extras() && starts_with(arg, "--benchmark_")) continue;
        return unknown_option(*app, path, arg.substr(0, arg.find('=')));
      }
      i += values_taken(*app, *opt, args, i);
      continue;
    }
    if (const CLI::App* sub = subcommand_named(*app, arg)) {
      if (!visible(*sub)) return std::nullopt;  // internal: started by p2pcheck itself
      app = sub;
      path = spaced(path, arg);
      command_given = false;
      continue;
    }
    if (!command_given && takes_command(*app)) return unknown_command(*app, path, arg);
    command_given = true;
  }
  if (app->get_require_subcommand_min() > 0 && !command_given) {
    return "'" + spaced("p2pcheck", path) +
           "' needs a command: " + joined(visible_subcommands(*app));
  }
  return std::nullopt;
}

}  // namespace p2p::cli
