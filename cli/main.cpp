#include <CLI/CLI.hpp>
#include <iostream>
#include <vector>

#include "cli/command.hpp"
#include "cli/commands.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"

namespace {

int report(const char* kind, const std::exception& e, int code) {
  std::cerr << "p2pcheck: " << kind << e.what() << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
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
    std::cerr << "p2pcheck: error: " << e.what() << " (--help lists the options)\n";
    return p2p::kExitBadInput;
  }

  try {
    for (auto& c : commands) {
      if (c.app->parsed()) return c.run();
    }
  } catch (const p2p::InputError& e) {
    return report("error: ", e, p2p::kExitBadInput);
  } catch (const p2p::NoGpuError& e) {
    return report("no usable GPU: ", e, p2p::kExitNoGpu);
  } catch (const p2p::HangError& e) {
    return report("hang: ", e, p2p::kExitHang);
  } catch (const std::exception& e) {
    return report("error: ", e, p2p::kExitRuntime);
  }
  return p2p::kExitBadInput;
}
