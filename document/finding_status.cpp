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

}  // namespace p2p::doc
