// Real pastes from public threads (import/tests/fixtures/pastes/, each with its source in the
// README): every expectation read off a paste by hand holds when the paste is imported alone.
#include <gtest/gtest.h>

#include <filesystem>

#include "import/tests/paste_expectations.hpp"

namespace p2p::import {
namespace {

const std::string kFolder = std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/pastes";

TEST(PasteCorpus, EveryExpectationReadOffAPasteHolds) {
  int checks = 0;
  const auto missed = testing::misses(kFolder, checks);
  EXPECT_GT(checks, 90);
  for (const auto& m : missed) ADD_FAILURE() << m;
}

// What import writes, compare and report must read: every paste's document, through its JSON,
// NCCL section included (size-0 rows once made one they refused).
TEST(PasteCorpus, EveryImportedDocumentReadsBack) {
  int documents = 0;
  for (const std::string& folder : {kFolder, kFolder + "/holdout"}) {
    for (const auto& [file, checks] : testing::expectations(folder)) {
      const auto o = testing::import_alone(read_text_file(folder + "/" + file), file);
      if (!o.error.empty()) continue;
      const nlohmann::json j = o.doc;
      const auto back = doc::bench_document_from_json(j, file);
      EXPECT_EQ(nlohmann::json(back), j) << file;
      if (back.nccl) EXPECT_FALSE(back.nccl->run.results.empty()) << file;
      ++documents;
    }
  }
  EXPECT_GE(documents, 30);
}

TEST(PasteCorpus, EveryPasteHasExpectations) {
  const auto listed = testing::expectations(kFolder);
  int pastes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kFolder)) {
    if (entry.path().extension() != ".txt") continue;
    ++pastes;
    EXPECT_EQ(listed.count(entry.path().filename().string()), 1u) << entry.path();
  }
  EXPECT_EQ(static_cast<std::size_t>(pastes), listed.size());
}

}  // namespace
}  // namespace p2p::import
