// JUnit XML, as Jenkins, GitLab, GitHub test reporters and most CI systems read it: one
// <testsuite> per suite, one <testcase> per case; a failing case carries <failure> (an error
// <error>) whose message is its one-line cause, a skipped one <skipped> with the reason.
// tests/junit.xsd describes exactly what is written.
#pragma once

#include <string>
#include <vector>

#include "report/check_cases.hpp"

namespace p2p::report {

struct CaseCounts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};
CaseCounts count_cases(const std::vector<CheckSuite>& suites);

// The whole document: <?xml ...?><testsuites name="p2pcheck" ...>. Names, messages and values
// are made valid UTF-8 and escaped for XML; timestamps lose their "Z" (the common JUnit
// schema's timestamp has no zone; they are UTC).
std::string render_junit(const std::vector<CheckSuite>& suites);

}  // namespace p2p::report
