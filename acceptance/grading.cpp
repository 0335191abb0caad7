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

std::string basis_of_rule(const std::string& rule) {
  // Rules that hold a figure to another figure of the same run.
  static const char* const kMeasured[] = {"p2p_vs_staged", "bidirectional",   "direction_symmetry",
                                          "class_outlier", "latency_outlier", "stability",
                                          "p2p_in_effect"};
  // Rules whose bound is a threshold or floor of the policy (defaults included).
  static const char* const kPolicy[] = {"floor", "p2p_latency", "min_busbw"};
  for (const char* r : kMeasured)
    if (rule == r) return "measured";
  for (const char* r : kPolicy)
    if (rule == r) return "policy";
  if (rule == "link_ceiling") return "topology";
  if (rule == "model_reference") return "model";
  return "run";  // verification, GPUs seen, caveats, hangs, errors: facts of the run itself
}

doc::Check make_check(const std::string& rule, const std::string& subject, doc::Outcome o,
                      const std::string& message, int priority) {
  doc::Check c;
  c.basis = basis_of_rule(rule);
  c.rule = rule;
  c.subject = subject;
  c.outcome = o;
  c.message = message;
  c.priority = priority;
  return c;
}

}  // namespace p2p::accept
