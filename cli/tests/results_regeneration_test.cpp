// Every page, export and table kept in results/ beside the document it was made from is made
// again from that document, here, and must come out byte for byte as committed: a change to a
// renderer that alters what users were shown fails here, with the diff, until the kept outputs
// are regenerated on purpose. results/README.md says which command made which output.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/testing/run_captured.hpp"
#include "document/infer_document.hpp"
#include "infer/results_html.hpp"
#include "infer/results_text.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kResults = std::string(P2P_SOURCE_DIR) + "/results/";

// The report's header names the document by the path it was given on the command line (the
// scripts gave /tmp/r/..., OUT/mpi/...): where the page was made, not what it says. Only that
// cell is replaced, on both sides.
std::string without_document_path(std::string html) {
  const std::string row = "<tr><th class=\"l\">results</th><td class=\"l\">";
  for (auto at = html.find(row); at != std::string::npos; at = html.find(row, at + 1)) {
    const auto start = at + row.size();
    const auto end = html.find("</td>", start);
    if (end == std::string::npos) break;
    html.replace(start, end - start, "DOCUMENT");
  }
  return html;
}

class Scratch {
 public:
  Scratch() {
    char tmpl[] = "/tmp/p2p_regen_XXXXXX";
    if (mkdtemp(tmpl) != nullptr) dir_ = tmpl;
  }
  ~Scratch() {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

// "" when equal; else `diff -u` of the committed output against the one made now.
std::string difference(const std::string& committed_name, const std::string& committed,
                       const std::string& made, const Scratch& scratch) {
  if (committed == made) return "";
  const std::string a = scratch.dir() + "/committed", b = scratch.dir() + "/regenerated";
  p2p::write_text_file_atomically(a, committed);
  p2p::write_text_file_atomically(b, made);
  const auto d = p2p::testing::run_captured("diff -u --label 'results/" + committed_name +
                                            "' --label regenerated '" + a + "' '" + b + "'");
  return d.out.empty() ? "(contents differ; diff printed nothing: " + d.err + ")" : d.out;
}

struct CliDerived {
  std::string output;    // under results/
  std::string document;  // under results/
  std::string command;   // after the executable: DOC and OUT are replaced by the paths
};

// The commands the acceptance scripts ran (scripts/one-gpu-acceptance.sh, mpi-nccl-one-gpu.sh,
// shared-gpu-acceptance.sh).
const std::vector<CliDerived> kCliDerived = {
    {"h200-vm-2026-12-03-one-gpu/bench-logical8.html",
     "h200-vm-2026-12-03-one-gpu/bench-logical8.json", "report DOC --html OUT"},
    {"h200-vm-2026-12-03-one-gpu/nccl-ranks8.html", "h200-vm-2026-12-03-one-gpu/nccl-ranks8.json",
     "report DOC --html OUT"},
    {"h200-vm-2026-12-03-fleet/mpi-nccl/nccl-mpi.html",
     "h200-vm-2026-12-03-fleet/mpi-nccl/nccl-mpi.json", "report DOC --html OUT"},
    {"h200-vm-2026-12-03-fleet/shared-gpu/bench-B.prom",
     "h200-vm-2026-12-03-fleet/shared-gpu/bench-B.json", "export DOC --prom OUT"},
    {"h200-vm-2026-12-03-fleet/shared-gpu-rerun/bench-B.prom",
     "h200-vm-2026-12-03-fleet/shared-gpu-rerun/bench-B.json", "export DOC --prom OUT"},
};

std::string substitute(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(ResultsRegeneration, ReportPagesAndExportsComeOutAsCommitted) {
  for (const auto& d : kCliDerived) {
    SCOPED_TRACE(d.output);
    Scratch scratch;
    ASSERT_FALSE(scratch.dir().empty());
    const std::string out = scratch.dir() + "/" + fs::path(d.output).filename().string();
    std::string command = substitute(d.command, "DOC", "'" + kResults + d.document + "'");
    command = substitute(command, "OUT", "'" + out + "'");
    const auto run = p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " " + command);
    ASSERT_EQ(run.exit_code, 0) << command << ": " << run.err;
    std::string committed = p2p::read_text_file(kResults + d.output);
    std::string made = p2p::read_text_file(out);
    if (fs::path(d.output).extension() == ".html") {
      committed = without_document_path(committed);
      made = without_document_path(made);
    }
    const auto diff = difference(d.output, committed, made, scratch);
    EXPECT_TRUE(diff.empty()) << diff;
  }
}

p2p::doc::InferDocument infer_document(const std::string& name) {
  p2p::doc::InferDocument doc;
  from_json(p2p::read_json_file(kResults + name), doc);
  return doc;
}

// `infer --html` wrote the page during the run; no subcommand renders it later, so the renderer
// the command calls is called here on the document the same run wrote.
TEST(ResultsRegeneration, InferPageComesOutAsCommitted) {
  const std::string page = "h200-vm-2026-12-03-fleet/infer/infer-logical8.html";
  const auto doc = infer_document("h200-vm-2026-12-03-fleet/infer/infer-logical8.json");
  Scratch scratch;
  ASSERT_FALSE(scratch.dir().empty());
  const auto diff = difference(page, p2p::read_text_file(kResults + page),
                               p2p::infer::render_infer_html(doc), scratch);
  EXPECT_TRUE(diff.empty()) << diff;
}

// The console logs of `infer` hold progress lines and the script's header and footer around the
// results table; the table, made from the document the run wrote, must be in them unchanged.
TEST(ResultsRegeneration, InferTablesAreInTheirRunsConsoleLogs) {
  for (const std::string run : {"infer-logical8", "infer-budget-missed"}) {
    SCOPED_TRACE(run);
    const std::string base = "h200-vm-2026-12-03-fleet/infer/" + run;
    const std::string table = p2p::infer::format_results(infer_document(base + ".json"));
    const std::string log = p2p::read_text_file(kResults + base + ".txt");
    ASSERT_FALSE(table.empty());
    if (log.find(table) != std::string::npos) continue;
    // Show the difference against the log from the table's first line on.
    const auto first_line = table.substr(0, table.find('\n') + 1);
    const auto at = log.find(first_line);
    Scratch scratch;
    ASSERT_FALSE(scratch.dir().empty());
    ADD_FAILURE() << "the table made from " << base << ".json is not in " << base << ".txt:\n"
                  << difference(base + ".txt", at == std::string::npos ? log : log.substr(at),
                                table, scratch);
  }
}

// summary.txt is scripts/side_by_side_summary.py over the rounds' raw outputs beside it, run from
// the repository root with the folder's relative path (which its first line repeats).
TEST(ResultsRegeneration, SideBySideSummaryComesOutAsCommitted) {
  if (p2p::testing::run_captured("python3 --version").exit_code != 0)
    GTEST_SKIP() << "python3 is not installed: scripts/side_by_side_summary.py cannot run";
  for (const std::string folder :
       {"h200-vm-2026-12-03-fleet/side-by-side", "h200-vm-2026-12-03-speed/side-by-side"}) {
    const auto run = p2p::testing::run_captured(
        "cd '" + std::string(P2P_SOURCE_DIR) +
        "' && python3 scripts/side_by_side_summary.py results/" + folder);
    ASSERT_EQ(run.exit_code, 0) << folder << ": " << run.err;
    Scratch scratch;
    ASSERT_FALSE(scratch.dir().empty());
    const auto diff =
        difference(folder + "/summary.txt", p2p::read_text_file(kResults + folder + "/summary.txt"),
                   run.out, scratch);
    EXPECT_TRUE(diff.empty()) << diff;
  }
}

}  // namespace
