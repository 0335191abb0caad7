// How a doctor check ended, as the p2pcheck.doctor.report document spells it in
// findings[].status. The doctor judges in this enum (doctor::Status is it), and a reader of a
// saved report parses the word with finding_status_named, so the words live in one table.
#pragma once

#include <optional>
#include <string>

namespace p2p::doc {

enum class FindingStatus {
  kPass,
  kWarn,     // works, with something a person should look at
  kFail,     // the doctor exits 1
  kSkip,     // does not apply here
  kUnknown,  // could not be verified from where the doctor ran
};

const char* to_string(FindingStatus s);  // pass | warn | fail | skip | unknown
// nullopt for another word, so that a reader names it in its own message.
std::optional<FindingStatus> finding_status_named(const std::string& word);

}  // namespace p2p::doc
