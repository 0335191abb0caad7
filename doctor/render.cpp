#include "doctor/render.hpp"

#include <algorithm>
#include <sstream>

#include "common/verdict_line.hpp"
#include "doctor/rules/rules.hpp"

namespace p2p::doctor {

namespace {

constexpr std::size_t kIdWidth = 22;
constexpr std::size_t kCauseEvidenceLines = 4;  // the rest is in --format json

}  // namespace

const char* status_symbol(Status s) {
  switch (s) {
    case Status::kPass: return "✔";
    case Status::kWarn: return "⚠";
    case Status::kFail: return "✘";
    case Status::kSkip: return "–";
    case Status::kUnknown: return "?";
  }
  return "?";
}

std::string render_verdict_text(const Facts& f, const std::vector<Finding>& findings,
                                const Verdict& v) {
  std::ostringstream out;
  out << "p2pcheck doctor: " << (f.source.empty() ? "facts" : f.source) << "\n";
  if (!f.note.empty()) out << "  (" << f.note << ")\n";
  out << "\n";
  for (const auto& x : findings) {
    std::string id = x.id;
    if (id.size() < kIdWidth) id += std::string(kIdWidth - id.size(), ' ');
    out << status_symbol(x.status) << " " << id << " " << x.summary << "\n";
    if (!x.hint.empty() && x.status != Status::kPass && x.status != Status::kSkip)
      out << "    → " << x.hint << "\n";
  }
  out << "\nVerdict: " << v.headline << "\n";
  for (std::size_t i = 0; i < v.causes.size(); ++i) {
    const Cause& c = v.causes[i];
    out << "  " << (i + 1) << ". " << c.title << " [" << c.confidence << "]\n";
    if (!c.gpus.empty()) {
      out << "       GPUs:";
      for (std::size_t g = 0; g < c.gpus.size(); ++g) out << (g ? ", " : " ") << c.gpus[g];
      out << "\n";
    }
    for (std::size_t e = 0; e < c.evidence.size() && e < kCauseEvidenceLines; ++e)
      out << "       · " << c.evidence[e] << "\n";
    if (c.evidence.size() > kCauseEvidenceLines)
      out << "       · (+" << (c.evidence.size() - kCauseEvidenceLines)
          << " more in --format json)\n";
    if (!c.fix.empty()) out << "     fix: " << c.fix << "\n";
  }
  if (!v.ruled_out.empty()) {
    out << "  Ruled out:\n";
    for (const auto& r : v.ruled_out) out << "     - " << r << "\n";
  }
  if (!v.unverified.empty()) {
    out << "  Not verified from here:\n";
    for (const auto& u : v.unverified) out << "     ? " << u << "\n";
  }
  const bool warned = std::any_of(findings.begin(), findings.end(),
                                  [](const Finding& x) { return x.status == Status::kWarn; });
  out << "\n"
      << verdict_line("doctor",
                      exit_code_of(findings, v) != 0 ? VerdictWord::kFail
                      : warned                       ? VerdictWord::kPassWithWarnings
                                                     : VerdictWord::kPass,
                      v.headline);
  return out.str();
}

nlohmann::json render_verdict_json(const Facts& f, const std::vector<Finding>& findings,
                                   const Verdict& v) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& x : findings) list.push_back(to_json(x));
  return {{"schema", "p2pcheck.doctor.report"},     {"version", 1},     {"source", f.source},
          {"exit_code", exit_code_of(findings, v)}, {"findings", list}, {"verdict", to_json(v)}};
}

}  // namespace p2p::doctor
