// Every results document kept in results/ (real runs) goes through compare and report with the
// built executable, in every build configuration: a host without CUDA reads results too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> results_documents() {
  std::vector<std::string> docs;
  for (const auto& e : fs::recursive_directory_iterator(std::string(P2P_SOURCE_DIR) + "/results")) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const auto j = p2p::read_json_file(e.path().string());
    if (j.is_object() && j.value("schema", "") == "p2pcheck.bench.run")
      docs.push_back(e.path().string());
  }
  return docs;
}

TEST(ResultsDocuments, EveryKeptRunComparesWithItselfAndRendersAReport) {
  const auto docs = results_documents();
  ASSERT_GE(docs.size(), 2u) << "results/ should hold the H200 bench and nccl runs";
  const p2p::TempDir tmp("p2p_results_docs");
  const std::string& dir = tmp.path();
  for (const auto& doc : docs) {
    // A run that was interrupted or shared never compares as whole, not even with itself; with
    // those caveats accepted (and said so) every kept run matches itself.
    const auto cmp = p2p::testing::run_captured(
        std::string(P2PCHECK_EXE) + " compare --allow-caveat interrupted --allow-caveat shared '" +
        doc + "' '" + doc + "'");
    EXPECT_NE(cmp.out.find(" 0 regressed, 0 lost, 0 missing,"), std::string::npos)
        << doc << ": " << cmp.out;
    // An NCCL run whose ranks shared one GPU measured the tool, not a link: none of its figures
    // is judged, and a comparison that judged nothing fails, saying so. Every other run passes.
    const bool nccl_on_shared_gpus =
        p2p::read_json_file(doc).value("written_by", "") == "nccl" &&
        cmp.out.find("caveat: the run is logical") != std::string::npos;
    if (nccl_on_shared_gpus) {
      EXPECT_EQ(cmp.exit_code, 1) << doc << ": " << cmp.err << cmp.out;
      EXPECT_NE(cmp.out.find("FAIL — compare figures: nothing was compared"), std::string::npos)
          << doc << ": " << cmp.out;
    } else {
      EXPECT_EQ(cmp.exit_code, 0) << doc << ": " << cmp.err << cmp.out;
    }
    const std::string html = dir + "/" + fs::path(doc).stem().string() + ".html";
    const auto rep = p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " report '" + doc +
                                                "' --html '" + html + "'");
    EXPECT_EQ(rep.exit_code, 0) << doc << ": " << rep.err;
    const std::string page = p2p::try_read_text_file(html).value_or("");
    EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u) << doc;
  }
}

}  // namespace
