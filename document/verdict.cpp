#include "document/verdict.hpp"

#include <algorithm>

#include "common/exit_codes.hpp"
#include "common/interrupt.hpp"
#include "common/json_util.hpp"
#include "document/enum_names.hpp"
#include "document/suspects.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

constexpr EnumNames<CaveatKind, 6> kCaveats{{{CaveatKind::kInterrupted, "interrupted"},
                                             {CaveatKind::kShared, "shared"},
                                             {CaveatKind::kLogicalGpus, "logical"},
                                             {CaveatKind::kUnverified, "unverified"},
                                             {CaveatKind::kWaived, "waived"},
                                             {CaveatKind::kGateOverride, "gate_override"}}};

const char* label(Outcome o) {
  switch (o) {
    case Outcome::kFail: return "FAIL ";
    case Outcome::kError: return "ERROR";
    case Outcome::kWarn: return "warn ";
    default: return "     ";
  }
}

std::string reason_text(const Check& c) {
  std::string out = c.rule;
  if (!c.subject.empty()) out += " " + c.subject;
  out += ": " + c.message;
  if (!c.basis.empty()) out += " [" + basis_words(c.basis) + "]";
  return out;
}

}  // namespace

std::string basis_words(const std::string& basis) {
  if (basis == "run") return "basis: this run";
  if (basis == "measured") return "basis: measured on this host";
  if (basis == "topology") return "basis: the document's topology";
  if (basis == "model") return "basis: the GPU model's reference";
  if (basis == "path_class") return "basis: a path-class guess";
  if (basis == "policy") return "basis: the policy";
  if (basis == "baseline") return "basis: the baseline run";
  return "basis: " + basis;
}

const char* to_string(CaveatKind k) { return name_in(kCaveats, k); }
CaveatKind caveat_from_string(const std::string& word, const std::string& what) {
  return parse_in(kCaveats, word, what);
}

std::vector<Check> RunVerdict::reasons() const {
  std::vector<Check> out;
  for (const auto& c : checks) {
    if (c.outcome == Outcome::kFail || c.outcome == Outcome::kError || c.outcome == Outcome::kWarn)
      out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), [](const Check& a, const Check& b) {
    if (severity(a.outcome) != severity(b.outcome))
      return severity(a.outcome) > severity(b.outcome);
    return a.priority < b.priority;
  });
  return out;
}

int RunVerdict::count(Outcome o) const {
  return static_cast<int>(
      std::count_if(checks.begin(), checks.end(), [o](const Check& c) { return c.outcome == o; }));
}

bool RunVerdict::has_caveat(CaveatKind k) const {
  return std::any_of(caveats.begin(), caveats.end(), [k](const Caveat& c) { return c.kind == k; });
}

void add_check(RunVerdict& v, Check c) {
  // Skipped and not-meaningful items never change a run's outcome: they say what was not judged.
  if (c.outcome != Outcome::kSkipped && c.outcome != Outcome::kNotMeaningful)
    v.outcome = worst(v.outcome, c.outcome);
  v.checks.push_back(std::move(c));
}

void add_caveat(RunVerdict& v, CaveatKind kind, const std::string& detail) {
  for (auto& c : v.caveats) {
    if (c.kind != kind) continue;
    if (!detail.empty() && c.detail.find(detail) == std::string::npos)
      c.detail += (c.detail.empty() ? "" : "; ") + detail;
    return;
  }
  v.caveats.push_back({kind, detail});
}

int exit_code(const RunVerdict& v) {
  if (v.interrupt_signal != 0) return interrupted_exit_code(v.interrupt_signal);
  if (v.hung) return kExitHang;
  if (v.outcome == Outcome::kFail) return kExitFailed;
  if (v.outcome == Outcome::kError) return kExitRuntime;
  return kExitOk;
}

std::string headline(const RunVerdict& v) {
  if (v.outcome == Outcome::kFail) return "FAIL";
  if (v.outcome == Outcome::kError) return "ERROR";
  return v.count(Outcome::kWarn) > 0 ? "PASS with warnings" : "PASS";
}

std::string caveats_line(const std::vector<Caveat>& caveats) {
  std::string out;
  for (const auto& c : caveats) {
    out += (out.empty() ? "" : "; ") + std::string(to_string(c.kind));
    if (!c.detail.empty()) out += " (" + c.detail + ")";
  }
  return out;
}

std::string format_verdict(const RunVerdict& v, const std::string& command, int max_reasons) {
  VerdictBlock how;
  how.max_reasons = max_reasons;
  return format_verdict(v, command, how);
}

std::string format_verdict(const RunVerdict& v, const std::string& command,
                           const VerdictBlock& how) {
  const std::vector<Check> reasons = v.reasons();
  std::vector<Check> listed;
  for (const auto& r : reasons)
    if (!how.shown_above || !how.shown_above(r)) listed.push_back(r);
  std::string out;
  const auto suspect = suspect_of(v);
  if (suspect && !how.suspect_shown_above) out += suspect_line(*suspect) + "\n";
  if (const std::string per_gpu = gpu_outcomes_line(gpu_outcomes(v, suspect)); !per_gpu.empty())
    out += per_gpu + "\n";
  if (!listed.empty()) out += "reasons, most important first:\n";
  const int shown = std::min(static_cast<int>(listed.size()), std::max(how.max_reasons, 1));
  for (int i = 0; i < shown; ++i)
    out += "  " + std::string(label(listed[i].outcome)) + " " + reason_text(listed[i]) + "\n";
  if (static_cast<int>(listed.size()) > shown)
    out += "  ... and " + std::to_string(listed.size() - shown) +
           " more (every check is in the JSON document and the JUnit report)\n";
  if (listed.size() < reasons.size())
    out += std::to_string(reasons.size() - listed.size()) +
           " reason(s) are the rows of the table above, not repeated here\n";
  if (!v.caveats.empty()) out += "caveats: " + caveats_line(v.caveats) + "\n";
  out += "p2pcheck " + command + ": " + headline(v);
  const int judged = static_cast<int>(v.checks.size());
  if (!reasons.empty() && !passes(v.outcome)) {
    out += " — " + reason_text(reasons.front());
  } else {
    out += " — " + std::to_string(judged) + " checks, " + std::to_string(v.count(Outcome::kFail)) +
           " failed, " + std::to_string(v.count(Outcome::kWarn)) + " warnings";
  }
  // The caveats' kinds on the last line too: a scheduler or a CI log that keeps only it must not
  // read a run on logical GPUs, or a shared one, as a plain PASS.
  if (!v.caveats.empty()) {
    std::string kinds;
    for (const auto& c : v.caveats)
      kinds += (kinds.empty() ? "" : ", ") + std::string(to_string(c.kind));
    out += " [caveats: " + kinds + "]";
  }
  return out + "\n";
}

void to_json(json& j, const Caveat& c) {
  j = json{{"kind", to_string(c.kind)}, {"detail", c.detail}};
}
void from_json(const json& j, Caveat& c) {
  c.kind = parse_json_in(kCaveats, j.at("kind"), "caveat kind");
  c.detail = j.at("detail").get<std::string>();
}

void to_json(json& j, const Check& c) {
  j = json{{"rule", c.rule},
           {"subject", c.subject},
           {"outcome", c.outcome},
           {"message", c.message},
           {"value", optional_json(c.value)},
           {"expected", optional_json(c.expected)},
           {"unit", c.unit},
           {"priority", c.priority}};
  if (!c.basis.empty()) j["basis"] = c.basis;
  if (!c.places.empty()) j["places"] = c.places;
}
void from_json(const json& j, Check& c) {
  c.rule = j.at("rule").get<std::string>();
  c.subject = j.at("subject").get<std::string>();
  c.outcome = j.at("outcome").get<Outcome>();
  c.message = j.at("message").get<std::string>();
  c.value = optional_at<double>(j, "value");
  c.expected = optional_at<double>(j, "expected");
  c.unit = j.at("unit").get<std::string>();
  c.priority = checked_integer<int>(j.at("priority"), "priority", 0, 1000000);
  c.basis = j.contains("basis") ? j.at("basis").get<std::string>() : "";
  c.places = j.contains("places") ? j.at("places").get<std::vector<std::string>>()
                                  : std::vector<std::string>{};
}

void to_json(json& j, const RunVerdict& v) {
  j = json::object();
  write_schema_header(j, RunVerdict::kSchema, RunVerdict::kVersion);
  j["outcome"] = v.outcome;
  j["headline"] = headline(v);
  j["hung"] = v.hung;
  j["interrupt_signal"] = v.interrupt_signal;
  j["judged_by"] = v.judged_by;
  j["policy"] = v.policy;
  j["caveats"] = v.caveats;
  json counts = json::object();
  for (Outcome o : {Outcome::kPass, Outcome::kWarn, Outcome::kFail, Outcome::kError,
                    Outcome::kSkipped, Outcome::kNotMeaningful})
    counts[to_string(o)] = v.count(o);
  j["counts"] = counts;
  j["reasons"] = v.reasons();
  j["checks"] = v.checks;
}

void from_json(const json& j, RunVerdict& v) {
  require_schema(j, RunVerdict::kSchema, RunVerdict::kVersion);
  v.outcome = j.at("outcome").get<Outcome>();
  v.hung = j.at("hung").get<bool>();
  v.interrupt_signal = checked_integer<int>(j.at("interrupt_signal"), "interrupt_signal", 0, 128);
  v.judged_by = j.at("judged_by").get<std::string>();
  v.policy = j.at("policy").get<std::string>();
  v.caveats = j.at("caveats").get<std::vector<Caveat>>();
  v.checks = j.at("checks").get<std::vector<Check>>();
}

}  // namespace p2p::doc
