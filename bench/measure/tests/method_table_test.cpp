// The table of transfer methods: every Method has its row, and every method answers what the
// measuring code asks of it without a GPU (its word, metric, link path, peer mapping, batch
// limits, the wording of a failed check). The GPU side of each method (its copier or walker)
// is walked in measure_test.cpp.
#include "bench/measure/methods/method_table.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <stdexcept>

#include "bench/measure/batch_plan.hpp"
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"
#include "bench/measure/methods/staged_pipeline.hpp"
#include "bench/sizes.hpp"

namespace {

using namespace p2p::bench;

std::vector<Method> every_method() {
  std::vector<Method> out;
  for (int i = 0; i < static_cast<int>(Method::kCount); ++i) out.push_back(static_cast<Method>(i));
  return out;
}

TEST(MethodTable, EveryMethodHasExactlyOneRowAndAWordOfItsOwn) {
  std::set<std::string> words;
  for (Method m : every_method()) {
    int rows = 0;
    for (const MethodRow& row : kMethodTable) rows += row.method == m;
    EXPECT_EQ(rows, 1) << "method " << static_cast<int>(m);
    const MethodTraits& t = transfer_method(m).traits();
    const std::string word = t.word;
    EXPECT_FALSE(word.empty()) << "method " << static_cast<int>(m);
    EXPECT_NE(word, "mixed");  // the word of a total over lanes of different methods
    for (char ch : word)
      EXPECT_TRUE(std::islower(static_cast<unsigned char>(ch)) || ch == '_') << word;
    EXPECT_TRUE(words.insert(word).second) << "two methods say " << word;
    EXPECT_EQ(to_string(m), word);
  }
  EXPECT_THROW(transfer_method(Method::kCount), std::logic_error);
}

// The words are the results' "method": baselines and reports compare them.
TEST(MethodTable, TheRecordedWordsStayAsTheResultsSchemaNamesThem) {
  EXPECT_EQ(to_string(Method::kCopyEngine), "copy_engine");
  EXPECT_EQ(to_string(Method::kSm), "sm");
  EXPECT_EQ(to_string(Method::kStaged), "staged");
  EXPECT_EQ(to_string(Method::kPointerChase), "pointer_chase");
}

TEST(MethodTable, EveryMethodsTraitsHangTogether) {
  for (Method m : every_method()) {
    const TransferMethod& method = transfer_method(m);
    const MethodTraits& t = method.traits();
    SCOPED_TRACE(t.word);
    if (t.fuses_pairs) {
      EXPECT_TRUE(t.runs_on_sms);  // a fused pair is one SM kernel
    }
    if (t.metric == Metric::kLatency) {
      EXPECT_EQ(t.link_path, LinkPath::kNone);  // a walk's figure is no share of a link
      EXPECT_FALSE(t.runs_on_sms);
      EXPECT_FALSE(t.fuses_pairs);
    } else {
      EXPECT_NE(t.link_path, LinkPath::kNone);  // every copy has a link to be held against
    }
    for (std::uint64_t bytes : {std::uint64_t{4}, 4 * kMiB, kGiB, 64 * kGiB})
      EXPECT_GE(method.max_copies_per_batch(bytes), 0) << bytes;
  }
}

TEST(MethodTable, EveryMethodWordsAFailedCheckWithItsCounts) {
  LaneSamples s;
  s.bad_words = 5;
  s.bad_samples = 1;
  s.verified_samples = 3;
  s.verified_by = "gpu1";
  for (Method m : every_method()) {
    const std::string text = transfer_method(m).verification_failure(s);
    EXPECT_NE(text.find("1 of 3"), std::string::npos) << to_string(m) << ": " << text;
  }
  EXPECT_EQ(transfer_method(Method::kSm).verification_failure(s),
            "verification failed: 5 bad words in 1 of 3 samples (checked by gpu1)");
  EXPECT_EQ(transfer_method(Method::kPointerChase).verification_failure(s),
            "the pointer chain was not walked correctly in 1 of 3 samples");
}

// What each of today's methods says, row by row (the golden text pins what follows from it).
TEST(MethodTable, TodaysRows) {
  const MethodTraits& ce = transfer_method(Method::kCopyEngine).traits();
  EXPECT_EQ(ce.peer_mapping, PeerMapping::kBothWhereAllowed);
  EXPECT_EQ(ce.link_path, LinkPath::kDirect);
  EXPECT_FALSE(ce.runs_on_sms);
  const MethodTraits& sm = transfer_method(Method::kSm).traits();
  EXPECT_EQ(sm.peer_mapping, PeerMapping::kIssuerToOther);
  EXPECT_TRUE(sm.runs_on_sms && sm.fuses_pairs && sm.can_pad);
  const TransferMethod& staged = transfer_method(Method::kStaged);
  EXPECT_EQ(staged.traits().link_path, LinkPath::kThroughHost);
  EXPECT_EQ(staged.traits().peer_mapping, PeerMapping::kNone);
  EXPECT_FALSE(staged.traits().can_pad);
  EXPECT_EQ(staged.max_copies_per_batch(64 * kMiB), 4);  // 16 chunks a copy, 64 a batch
  EXPECT_EQ(staged.max_copies_per_batch(kMiB), 64);
  EXPECT_EQ(transfer_method(Method::kCopyEngine).max_copies_per_batch(kGiB), 0);
  EXPECT_EQ(transfer_method(Method::kPointerChase).traits().metric, Metric::kLatency);
}

}  // namespace
