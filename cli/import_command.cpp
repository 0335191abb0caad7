#include "cli/import_command.hpp"

#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/validators.hpp"
#include "common/exit_codes.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "import/paste_sections.hpp"
#include "session/import_run.hpp"

namespace p2p::cli {

namespace {

// What a file said of itself (its tool's version line, its notes) is written for a terminal.
void print_section(std::ostream& to, const import::ImportedFigures& p, bool several) {
  std::ostringstream out;
  out << p.file.file;
  if (several) out << ", lines " << p.first_line << "-" << p.last_line;
  out << ": " << p.file.tool << (p.file.version.empty() ? "" : " " + p.file.version) << " ("
      << p.file.format << "), " << p.file.figures << " figures\n";
  for (const auto& m : p.file.mappings) out << "  " << m << "\n";
  // What had to be assumed is said as it is; other notes as notes.
  for (const auto& n : p.file.notes)
    out << "  " << (n.rfind("assumed: ", 0) == 0 ? "" : "note: ") << n << "\n";
  to << terminal_text(out.str());
}

int run_import_command(const session::ImportRequest& r) {
  OutputRequest paths;
  add_output(paths, "--json", r.json);
  add_inputs(paths, "FILE", r.files);
  check_output_paths(paths);
  // With --json -, the document is standard output's: what was read goes to stderr.
  std::ostream& text = output_takes_stdout(paths) ? std::cerr : std::cout;
  const session::ImportOutcome imported = session::run_import(r);
  for (std::size_t f = 0; f < imported.files.size(); ++f) {
    const auto& paste = imported.files[f];
    for (const auto& s : paste.stripped)
      text << terminal_text(r.files[f] + ": removed " + s + "\n");
    for (const auto& p : paste.sections) print_section(text, p, paste.sections.size() > 1);
  }
  if (!r.json.empty() && r.json != "-") text << "wrote " << r.json << "\n";
  text << std::flush;
  return kExitOk;
}

}  // namespace

Command add_import_command(CLI::App& root) {
  auto o = std::make_shared<session::ImportRequest>();
  CLI::App* app = root.add_subcommand(
      "import",
      "Read nvbandwidth (text or -j JSON), nccl-tests (text or -J JSON) and p2pBandwidthLatencyTest outputs "
      "and nvidia-smi topo -m / -p2p captures, whole or pasted in pieces (quote markers, fences, line numbers, "
      "rank tags and timestamps removed; a table is enough), into a p2pcheck results document for compare and "
      "report (format told by content). No GPU needed");
  app->add_option("FILE", o->files, "Peer tools' outputs")->required()->expected(1, -1);
  app->add_option("--json", o->json,
                  "Write the results document to FILE (atomically; - for stdout, what was read "
                  "then goes to stderr)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option(
         "--buffer-size", o->buffer_size,
         "nvbandwidth's -b of the run (e.g. 512M; its output does not say; default: that version's default)")
      ->type_name("SIZE")
      ->check(byte_size_between(4, std::uint64_t{16} << 30));
  app->add_option("--num-elems", o->num_elems,
                  "p2pBandwidthLatencyTest's --numElems of the run (default 40000000)")
      ->check(count_between(1, 1LL << 40));
  app->add_option(
         "--collective", o->collective,
         "The collective of nccl-tests tables that do not name it (a pasted table, output older than 2.13): "
         "all_reduce, all_gather, ... (default: unknown)")
      ->check(not_empty("a collective: all_reduce, all_gather, ..."));
  app->add_option(
         "--tool", o->tool,
         "Read only this tool's tables: nvbandwidth, nccl-tests, p2pBandwidthLatencyTest or nvidia-smi")
      ->check(CLI::IsMember(import::paste_tools()));
  return Command{app, [o] { return run_import_command(*o); }};
}

}  // namespace p2p::cli
