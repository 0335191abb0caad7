#include "cli/import_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/sizes.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/utc_time.hpp"
#include "import/import_document.hpp"

namespace p2p::cli {

namespace {

struct ImportCommandOptions {
  std::vector<std::string> files;
  std::string json;
  std::string buffer_size;  // nvbandwidth -b (MiB) as a size: "512M"
  std::uint64_t num_elems = 40000000;
  std::string collective;
};

int run_import(const ImportCommandOptions& o) {
  import::ImportOptions options;
  if (!o.buffer_size.empty())
    options.nvbandwidth_buffer_bytes = bench::parse_size_bytes(o.buffer_size, "--buffer-size");
  options.p2p_sample_copy_bytes = o.num_elems * 4;
  options.collective = o.collective;
  const std::string started = utc_now_iso8601();
  // Every file is read and parsed before anything is written: one bad file, nothing written.
  std::vector<import::ImportedFigures> parts;
  for (const auto& f : o.files) parts.push_back(import::import_text(read_text_file(f), f, options));
  const bench::BenchDocument doc = import::import_document(parts, options, started);
  if (!o.json.empty()) write_text_file_atomically(o.json, json_text(nlohmann::json(doc)) + "\n");
  for (const auto& p : parts) {
    std::cout << p.file.file << ": " << p.file.tool
              << (p.file.version.empty() ? "" : " " + p.file.version) << " (" << p.file.format
              << "), " << p.file.figures << " figures\n";
    for (const auto& m : p.file.mappings) std::cout << "  " << m << "\n";
    for (const auto& n : p.file.notes) std::cout << "  note: " << n << "\n";
  }
  if (!o.json.empty()) std::cout << "wrote " << o.json << "\n";
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace

Command add_import_command(CLI::App& root) {
  auto o = std::make_shared<ImportCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "import",
      "Read nvbandwidth (text or -j JSON), nccl-tests (text or -J JSON) and p2pBandwidthLatencyTest outputs into a "
      "p2pcheck results document for compare and report (format told by content). No GPU needed");
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
  return Command{app, [o] { return run_import(*o); }};
}

}  // namespace p2p::cli
