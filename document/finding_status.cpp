#include "document/finding_status.hpp"

#include "document/enum_names.hpp"

namespace p2p::doc {

namespace {

constexpr EnumNames<FindingStatus, 5> kFindingStatuses{{{FindingStatus::kPass, "pass"},
                                                        {FindingStatus::kWarn, "warn"},
                                                        {FindingStatus::kFail, "fail"},
                                                        {FindingStatus::kSkip, "skip"},
                                                        {FindingStatus::kUnknown, "unknown"}}};

}  // namespace

const char* to_string(FindingStatus s) { return name_in(kFindingStatuses, s); }

std::optional<FindingStatus> finding_status_named(const std::string& word) {
  return find_in(kFindingStatuses, word);
}

Outcome outcome_of(FindingStatus s) {
  switch (s) {
    case FindingStatus::kPass: return Outcome::kPass;
    case FindingStatus::kWarn: return Outcome::kWarn;
    case FindingStatus::kFail: return Outcome::kFail;
    case FindingStatus::kSkip:
    case FindingStatus::kUnknown: return Outcome::kSkipped;
  }
  return Outcome::kSkipped;
}

}  // namespace p2p::doc
