#include "document/outcome.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::doc {
namespace {

TEST(Outcome, WordsRoundTripAndUnknownWordsAreRefusedWithTheKnownOnes) {
  for (Outcome o : {Outcome::kPass, Outcome::kWarn, Outcome::kFail, Outcome::kError,
                    Outcome::kSkipped, Outcome::kNotMeaningful}) {
    EXPECT_EQ(outcome_from_string(to_string(o), "outcome"), o);
    EXPECT_EQ(nlohmann::json(o).get<Outcome>(), o);
  }
  try {
    outcome_from_string("failed", "outcome");
    FAIL() << "`failed` is a figure status, not an outcome";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "`outcome`: unknown value `failed` (known: pass, warn, fail, error, skipped, "
                 "not_meaningful)");
  }
  EXPECT_THROW(nlohmann::json(3).get<Outcome>(), InputError);
}

TEST(Outcome, SeverityPutsFailuresFirstAndWorstKeepsTheMoreImportant) {
  EXPECT_GT(severity(Outcome::kFail), severity(Outcome::kError));
  EXPECT_GT(severity(Outcome::kError), severity(Outcome::kWarn));
  EXPECT_GT(severity(Outcome::kWarn), severity(Outcome::kSkipped));
  EXPECT_GT(severity(Outcome::kSkipped), severity(Outcome::kNotMeaningful));
  EXPECT_GT(severity(Outcome::kNotMeaningful), severity(Outcome::kPass));
  EXPECT_EQ(worst(Outcome::kWarn, Outcome::kFail), Outcome::kFail);
  EXPECT_EQ(worst(Outcome::kFail, Outcome::kPass), Outcome::kFail);
  EXPECT_TRUE(passes(Outcome::kWarn));
  EXPECT_FALSE(passes(Outcome::kError));
}

TEST(Outcome, EachMeasurementStateMapsToOneOutcome) {
  EXPECT_EQ(outcome_of(FigureStatus::kOk), Outcome::kPass);
  EXPECT_EQ(outcome_of(FigureStatus::kWaived), Outcome::kSkipped);
  EXPECT_EQ(outcome_of(FigureStatus::kFailed), Outcome::kFail);
  EXPECT_EQ(outcome_of(FigureStatus::kError), Outcome::kError);
  EXPECT_EQ(outcome_of(CollectiveStatus::kWrong), Outcome::kFail);
  EXPECT_EQ(outcome_of(CollectiveStatus::kHang), Outcome::kFail);
  EXPECT_EQ(outcome_of(RankEnd::kDone), Outcome::kPass);
  EXPECT_EQ(outcome_of(RankEnd::kDied), Outcome::kFail);
  EXPECT_EQ(outcome_of(RankEnd::kError), Outcome::kError);
  EXPECT_EQ(outcome_of(ThresholdStatus::kNotJudged), Outcome::kSkipped);
}

TEST(Outcome, AMissingFigureFailsACompareUnlessAllowed) {
  EXPECT_EQ(outcome_of(Change::kMissing, false), Outcome::kFail);
  EXPECT_EQ(outcome_of(Change::kMissing, true), Outcome::kSkipped);
  EXPECT_EQ(outcome_of(Change::kLost, true), Outcome::kFail);
  EXPECT_EQ(outcome_of(Change::kRegressed, true), Outcome::kFail);
  EXPECT_EQ(outcome_of(Change::kNotJudged, false), Outcome::kSkipped);
  EXPECT_EQ(outcome_of(Change::kSame, false), Outcome::kPass);
}

TEST(Outcome, DocumentWordsAreTheOnesOlderDocumentsUse) {
  // Documents written before the enums existed spell the states this way; they must still read.
  EXPECT_EQ(nlohmann::json("failed").get<FigureStatus>(), FigureStatus::kFailed);
  EXPECT_EQ(nlohmann::json("wrong").get<CollectiveStatus>(), CollectiveStatus::kWrong);
  EXPECT_EQ(nlohmann::json("no result").get<RankEnd>(), RankEnd::kNoResult);
  EXPECT_EQ(nlohmann::json("not_judged").get<ThresholdStatus>(), ThresholdStatus::kNotJudged);
  EXPECT_EQ(nlohmann::json(Change::kOneSideOnly).get<std::string>(), "one_side_only");
  EXPECT_THROW(nlohmann::json("FAILED").get<FigureStatus>(), InputError);
}

// One word style: every enum word is one token joined by underscores, in JSON and in text; the
// few once written with spaces still read.
TEST(Outcome, EveryWordIsOneTokenAndTheOldSpacedWordsStillRead) {
  EXPECT_STREQ(to_string(RankEnd::kNoResult), "no_result");
  EXPECT_STREQ(to_string(Change::kNotJudged), "not_judged");
  EXPECT_EQ(in_words(Change::kNotJudged), "not judged");  // in a sentence, as people write it
  EXPECT_EQ(in_words(Change::kRegressed), "regressed");
  EXPECT_EQ(nlohmann::json("no result").get<RankEnd>(), RankEnd::kNoResult);
  EXPECT_EQ(nlohmann::json("not judged").get<Change>(), Change::kNotJudged);
  EXPECT_EQ(nlohmann::json("one side only").get<Change>(), Change::kOneSideOnly);
  for (auto c : {Change::kRegressed, Change::kImproved, Change::kSame, Change::kLost, Change::kNew,
                 Change::kMissing, Change::kNotJudged, Change::kOneSideOnly})
    EXPECT_EQ(std::string(to_string(c)).find(' '), std::string::npos) << to_string(c);
  for (auto e : {RankEnd::kDone, RankEnd::kHang, RankEnd::kError, RankEnd::kDied, RankEnd::kKilled,
                 RankEnd::kNoResult, RankEnd::kStopped})
    EXPECT_EQ(std::string(to_string(e)).find(' '), std::string::npos) << to_string(e);
  EXPECT_THROW(nlohmann::json("not  judged").get<Change>(), InputError);
}

// The states of infer's messages and IPC pairs and of a fleet's hosts, in the words their
// documents (p2pcheck.infer v1, p2pcheck.cluster.run v1) already use, each with one outcome.
TEST(Outcome, InferAndFleetStatesReadTheirWordsAndMapToOneOutcome) {
  for (MessageStatus s : {MessageStatus::kOk, MessageStatus::kWrong, MessageStatus::kHang,
                          MessageStatus::kError, MessageStatus::kNotRun})
    EXPECT_EQ(nlohmann::json(s).get<MessageStatus>(), s);
  EXPECT_EQ(nlohmann::json("not_run").get<MessageStatus>(), MessageStatus::kNotRun);
  EXPECT_EQ(outcome_of(MessageStatus::kWrong), Outcome::kFail);
  EXPECT_EQ(outcome_of(MessageStatus::kHang), Outcome::kFail);
  EXPECT_EQ(outcome_of(MessageStatus::kNotRun), Outcome::kError);
  EXPECT_EQ(message_status_of(CollectiveStatus::kHang), MessageStatus::kHang);
  EXPECT_THROW(nlohmann::json("not run").get<MessageStatus>(), InputError);

  EXPECT_EQ(nlohmann::json("fail").get<IpcStatus>(), IpcStatus::kFail);
  EXPECT_EQ(outcome_of(IpcStatus::kFail), Outcome::kFail);
  EXPECT_EQ(outcome_of(IpcStatus::kNotRun), Outcome::kError);
  EXPECT_THROW(nlohmann::json("wrong").get<IpcStatus>(), InputError);

  EXPECT_EQ(nlohmann::json("no_result").get<HostStatus>(), HostStatus::kNoResult);
  EXPECT_EQ(outcome_of(HostStatus::kNoResult), Outcome::kError);
  EXPECT_EQ(outcome_of(HostStatus::kFail), Outcome::kFail);
  EXPECT_EQ(nlohmann::json(TopologyMatch::kDiffers), "differs");
  EXPECT_EQ(nlohmann::json("unknown").get<TopologyMatch>(), TopologyMatch::kUnknown);
}

}  // namespace
}  // namespace p2p::doc
