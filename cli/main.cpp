#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/commands.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"

namespace {

// Every error is one line, whatever the message carries (a newline or a control byte from a
// file name or a value read from input is written as an escape).
std::string one_line(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

int report(const char* kind, const std::exception& e, int code) {
  std::cerr << "p2pcheck: " << kind << one_line(e.what()) << "\n";
  return code;
}

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

}  // namespace

int main(int argc, char** argv) {
  // A write to a closed pipe or beyond the file size limit is an error p2pcheck reports (exit 4,
  // naming the file), not a signal that ends it silently.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"p2pcheck: can this host's GPUs talk peer-to-peer, how fast, and if not, why?"};
  app.set_version_flag("--version", std::string("p2pcheck ") + P2P_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  std::vector<p2p::cli::Command> commands = p2p::cli::add_all_commands(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0, printed by CLI11. Every real parse
    // error is bad input, said on one line like every other error of p2pcheck.
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? p2p::kExitOk : p2p::kExitBadInput;
    std::cerr << "p2pcheck: error: " << one_line(e.what()) << " (--help lists the options)\n";
    return p2p::kExitBadInput;
  }

  try {
    for (auto& c : commands) {
      if (c.app->parsed()) return checked_stdout(c.run());
    }
  } catch (const p2p::InputError& e) {
    return report("error: ", e, p2p::kExitBadInput);
  } catch (const p2p::NoGpuError& e) {
    return report("no usable GPU: ", e, p2p::kExitNoGpu);
  } catch (const p2p::HangError& e) {
    return report("hang: ", e, p2p::kExitHang);
  } catch (const p2p::BusyError& e) {
    return report("busy: ", e, p2p::kExitBusy);
  } catch (const std::exception& e) {
    return report("error: ", e, p2p::kExitRuntime);
  }
  return p2p::kExitBadInput;
}
