// How a doctor check ended, as the p2pcheck.doctor.report document spells it in
// findings[].status. The doctor judges in this enum (doctor::Status is it), and the readers of a
// saved report (JUnit, Prometheus) parse it here, so its words live in one table.
#pragma once

#include <optional>
#include <string>

#include "document/outcome.hpp"

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

// pass; warn (the doctor exits 0 on a warning); fail; skip and unknown are skipped.
Outcome outcome_of(FindingStatus s);

}  // namespace p2p::doc
