#include "cli/import_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "common/exit_codes.hpp"
#include "session/import_run.hpp"

namespace p2p::cli {

namespace {

int run_import_command(const session::ImportRequest& r) {
  const session::ImportOutcome imported = session::run_import(r);
  for (const auto& p : imported.parts) {
    std::cout << p.file.file << ": " << p.file.tool
              << (p.file.version.empty() ? "" : " " + p.file.version) << " (" << p.file.format
              << "), " << p.file.figures << " figures\n";
    for (const auto& m : p.file.mappings) std::cout << "  " << m << "\n";
    for (const auto& n : p.file.notes) std::cout << "  note: " << n << "\n";
  }
  if (!r.json.empty()) std::cout << "wrote " << r.json << "\n";
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace

Command add_import_command(CLI::App& root) {
  auto o = std::make_shared<session::ImportRequest>();
  CLI::App* app = root.add_subcommand(
      "import",
      "Read nvbandwidth (text or -j JSON), nccl-tests (text or -J JSON) and p2pBandwidthLatencyTest outputs "
      "(and nvidia-smi topo -p2p captures, for peer access) into a p2pcheck results document for compare and "
      "report (format told by content). No GPU needed");
  app->add_option("FILE", o->files, "Peer tools' outputs")->required()->expected(1, -1);
  app->add_option("--json", o->json, "Write the results document to FILE (atomically)");
  app->add_option(
      "--buffer-size", o->buffer_size,
      "nvbandwidth's -b of the run (e.g. 512M; its output does not say; default: that version's default)");
  app->add_option("--num-elems", o->num_elems,
                  "p2pBandwidthLatencyTest's --numElems of the run (default 40000000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  app->add_option(
      "--collective", o->collective,
      "nccl-tests output older than 2.13 does not name its collective: all_reduce, all_gather, ...");
  return Command{app, [o] { return run_import_command(*o); }};
}

}  // namespace p2p::cli
