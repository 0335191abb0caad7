#include "document/finding_status.hpp"

#include <gtest/gtest.h>

namespace p2p::doc {
namespace {

TEST(FindingStatus, EachWordOfTheReportNamesOneStatus) {
  const std::pair<const char*, FindingStatus> words[] = {{"pass", FindingStatus::kPass},
                                                         {"warn", FindingStatus::kWarn},
                                                         {"fail", FindingStatus::kFail},
                                                         {"skip", FindingStatus::kSkip},
                                                         {"unknown", FindingStatus::kUnknown}};
  for (const auto& [word, status] : words) {
    EXPECT_STREQ(to_string(status), word);
    EXPECT_EQ(finding_status_named(word), status) << word;
  }
}

TEST(FindingStatus, AnotherWordIsLeftToTheReaderToName) {
  EXPECT_EQ(finding_status_named("failed"), std::nullopt) << "a figure's word, not a finding's";
  EXPECT_EQ(finding_status_named("PASS"), std::nullopt);
  EXPECT_EQ(finding_status_named(""), std::nullopt);
}

}  // namespace
}  // namespace p2p::doc
