#include "acceptance/grading.hpp"

#include <cstdio>

namespace p2p::accept {

doc::Outcome grade_at_least(double value, const Bounds& b) {
  if (value < b.fail) return doc::Outcome::kFail;
  return value < b.warn ? doc::Outcome::kWarn : doc::Outcome::kPass;
}

doc::Outcome grade_at_most(double value, const Bounds& b) {
  if (value > b.fail) return doc::Outcome::kFail;
  return value > b.warn ? doc::Outcome::kWarn : doc::Outcome::kPass;
}

namespace {
std::string printed(const char* format, double v) {
  char b[48];
  std::snprintf(b, sizeof b, format, v);
  return b;
}
}  // namespace

std::string gbps(double v) { return printed("%.1f GB/s", v); }
std::string ratio(double v) { return printed("%.2fx", v); }
std::string percent(double fraction) { return printed("%.0f%%", fraction * 100); }
std::string micros(double ns) { return printed("%.2f us", ns / 1000); }

doc::Check make_check(const std::string& rule, const std::string& subject, doc::Outcome o,
                      const std::string& message, int priority) {
  doc::Check c;
  c.rule = rule;
  c.subject = subject;
  c.outcome = o;
  c.message = message;
  c.priority = priority;
  return c;
}

}  // namespace p2p::accept
