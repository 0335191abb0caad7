#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/commands.hpp"
#include "cli/failure_exit.hpp"
#include "cli/help_format.hpp"
#include "cli/list_items.hpp"
#include "cli/suggest.hpp"
#include "cli/version_text.hpp"
#include "common/exit_codes.hpp"

namespace {

// A command's verdict means nothing if what it printed never arrived (a full disk, a closed
// pipe): a failed write to standard output is a failure of its own (exit 4), said on stderr.
int checked_stdout(int code) {
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  const int err = errno;
  std::cerr << "p2pcheck: error: cannot write to standard output: "
            << (err ? std::strerror(err) : "write failed") << "\n";
  return p2p::kExitRuntime;
}

// A command line p2pcheck cannot take: one line naming the mistake (with the nearest real
// command or option where there is one), exit 2.
int bad_command_line(const std::string& what) {
  std::cerr << "p2pcheck: error: " << p2p::cli::one_line(what) << "\n";
  return p2p::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  // A write to a closed pipe or beyond the file size limit is an error p2pcheck reports (exit 4,
  // naming the file), not a signal that ends it silently.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  // Named, so help says "p2pcheck" rather than the path it was started by. The formatter and
  // the captured defaults are set before any subcommand exists: subcommands inherit both.
  CLI::App app{"p2pcheck: can this host's GPUs talk peer-to-peer, how fast, and if not, why?",
               "p2pcheck"};
  app.formatter(std::make_shared<p2p::cli::HelpFormatter>());
  app.option_defaults()->always_capture_default();
  std::string version = p2p::cli::version_text(p2p::cli::this_build());
  version.pop_back();  // CLI11 ends the line itself
  app.set_version_flag("--version", version, "Print the version and the optional parts built in");
  app.require_subcommand(1);
  app.fallthrough(false);

  std::vector<p2p::cli::Command> commands = p2p::cli::add_all_commands(app);
  const std::vector<std::string> args(argv + 1, argv + argc);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0, printed by CLI11. Every real parse
    // error is bad input, said on one line like every other error of p2pcheck.
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? p2p::kExitOk : p2p::kExitBadInput;
    return bad_command_line(p2p::cli::mistake_in(app, args).value_or(
        std::string(e.what()) + " (--help lists the options)"));
  }
  // What bench and nccl pass on to Google Benchmark must be its flags: a mistyped option of
  // theirs is bad input now, before any work, rather than a flag Google Benchmark refuses later.
  if (const auto empty_item = p2p::cli::empty_list_item_in(app, args))
    return bad_command_line(*empty_item);
  if (!app.remaining(true).empty()) {
    if (const auto mistake = p2p::cli::mistake_in(app, args)) return bad_command_line(*mistake);
  }

  try {
    for (auto& c : commands) {
      if (c.app->parsed()) return checked_stdout(c.run());
    }
  } catch (...) {
    return p2p::cli::exit_for_failure(std::current_exception(), args, std::cerr);
  }
  return p2p::kExitBadInput;
}
