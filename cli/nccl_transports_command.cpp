#include "cli/nccl_transports_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "nccl/transport_summary.hpp"

namespace p2p::cli {

namespace {

struct NcclTransportsOptions {
  std::vector<std::string> logs;
  std::string format = "text";
};

int run_nccl_transports(const NcclTransportsOptions& o) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& path : o.logs) files.emplace_back(path, read_text_file(path));
  const nccl::TransportSummary summary = nccl::summarize_transports(files);
  if (o.format == "json") {
    std::cout << json_text(nlohmann::json(summary)) << "\n";
  } else {
    std::cout << nccl::format_transport_summary(summary);
  }
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace

Command add_nccl_transports_command(CLI::App& nccl_app) {
  auto o = std::make_shared<NcclTransportsOptions>();
  CLI::App* app = nccl_app.add_subcommand(
      "transports",
      "Read NCCL INFO logs of any run (NCCL_DEBUG=INFO; one file, or one per rank): the transport per ordered pair "
      "of ranks and per channel, ranks' hosts and bus ids, the NCCL version, and why P2P was not used. No GPU needed");
  app->add_option("LOG", o->logs, "NCCL INFO log files")->required()->expected(1, -1);
  app->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return Command{app, [o] { return run_nccl_transports(*o); }};
}

}  // namespace p2p::cli
