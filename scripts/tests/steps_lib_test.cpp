// scripts/lib/steps.sh, the `step` the acceptance scripts share: which exit codes count as the
// step behaving (expect=, nonzero), what `status` becomes, the time limit, and what each step
// leaves in OUT/NAME.txt. Run through bash as the scripts source it.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

const std::string kLib = std::string(P2P_SOURCE_DIR) + "/scripts/lib/steps.sh";

struct Steps {
  p2p::TempDir dir{"p2p_steps"};
  // Runs BODY after sourcing the library with out= and status=0; prints "status N" at the end.
  p2p::testing::CliResult run(const std::string& body) const {
    const std::string script = dir.file("driver.sh");
    p2p::write_text_file_atomically(script, "set -uo pipefail\nout='" + dir.path() +
                                                "'\nstatus=0\n. '" + kLib + "'\n" + body +
                                                "\necho \"status $status\"\n");
    return p2p::testing::run_captured("bash '" + script + "'");
  }
  std::string log(const std::string& name) const {
    return p2p::try_read_text_file(dir.file(name + ".txt")).value_or("");
  }
};

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(StepsLib, PassingStepsLeaveStatusZeroAndTheirOutputInOutName) {
  const Steps s;
  const auto r = s.run(
      "step hello echo hi\nexpect=4 step four bash -c 'exit 4'\nexpect='0|1' step either false\n"
      "expect=nonzero step dies bash -c 'kill -KILL $$'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "status 0\n")) << r.out;
  EXPECT_TRUE(has(s.log("hello"), "== hello: echo hi\nhi\n== hello: exit 0, wall "))
      << s.log("hello");
  EXPECT_TRUE(has(s.log("four"), "== four: exit 4, wall ")) << s.log("four");
  EXPECT_TRUE(has(s.log("dies"), "== dies: exit 137, wall ")) << s.log("dies");
}

TEST(StepsLib, TheFirstUnexpectedFailureSetsStatusToItsCodeAndLaterOnesDoNotChangeIt) {
  const Steps s;
  const auto r = s.run("step a bash -c 'exit 3'\nstep b bash -c 'exit 2'\necho after");
  EXPECT_TRUE(has(r.out, "after\nstatus 3\n")) << r.out;  // a failing step does not end the script
}

TEST(StepsLib, AStepThatShouldHaveFailedDifferentlyMakesStatusOne) {
  const Steps s;
  auto r = s.run("expect=4 step wrong bash -c 'exit 2'");
  EXPECT_TRUE(has(r.out, "status 1\n")) << r.out;
  EXPECT_TRUE(has(s.log("wrong"), "== wrong: expected exit 4\n")) << s.log("wrong");
  r = s.run("expect=nonzero step passed true");
  EXPECT_TRUE(has(r.out, "status 1\n")) << r.out;
  EXPECT_TRUE(has(s.log("passed"), "== passed: expected a non-zero exit\n")) << s.log("passed");
}

TEST(StepsLib, StepTimeoutEndsTheCommandWithTimeoutsCode) {
  const Steps s;
  const auto r = s.run("step_timeout=1 step slow sleep 30");
  EXPECT_TRUE(has(r.out, "status 124\n")) << r.out;
  EXPECT_TRUE(has(s.log("slow"), "== slow: exit 124, wall ")) << s.log("slow");
}

TEST(StepsLib, SecondsSinceCountsFromAnEpochrealtimeReadingWithTheDigitsAsked) {
  const Steps s;
  const auto r = s.run(
      "t0=$(awk -v now=\"$EPOCHREALTIME\" 'BEGIN { printf \"%.6f\", now - 2.5 }')\n"
      "echo \"since $(seconds_since \"$t0\" 0) $(seconds_since \"$t0\")\"");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("since ([0-9]+) ([0-9]+\\.[0-9]{2})\n")))
      << r.out;
  EXPECT_GE(std::stoi(m[1]),
            2);  // at least the 2.5 s put between t0 and now, however slow the machine
  EXPECT_GE(std::stod(m[2]), 2.5);
}

}  // namespace
