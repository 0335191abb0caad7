#include "report/html_verdict.hpp"

#include <sstream>

#include "document/suspects.hpp"
#include "report/html_report.hpp"

namespace p2p::report {

const char* verdict_style() {
  return ".verdict{border:2px solid;border-radius:6px;padding:.6em 1em;margin:0 0 1.5em}"
         ".verdict.pass{border-color:#1a7f37;background:#e8f5ec}"
         ".verdict.warn{border-color:#9a6700;background:#fff8e1}"
         ".verdict.fail{border-color:#b42318;background:#fdecea}"
         ".verdict .headline{font-size:1.3em;font-weight:bold}"
         ".verdict ul{margin:.4em 0}.verdict .caveat{font-weight:bold;color:#7a2e0e}\n";
}

std::string verdict_banner(const doc::RunVerdict& v, int max_reasons) {
  const auto reasons = v.reasons();
  const char* cls = !doc::passes(v.outcome)                                  ? "fail"
                    : v.count(doc::Outcome::kWarn) > 0 || !v.caveats.empty() ? "warn"
                                                                             : "pass";
  std::ostringstream os;
  os << "<div class=\"verdict " << cls
     << "\" id=\"verdict\"><div class=\"headline\">Verdict: " << html_escape(headline(v))
     << "</div>\n";
  if (reasons.empty()) os << "<div>" << v.checks.size() << " checks, every one passed</div>\n";
  // The GPU the reasons point at, and each GPU's own outcome, before the reasons themselves.
  const auto suspect = doc::suspect_of(v);
  if (suspect)
    os << "<div class=\"suspect\"><b>" << html_escape(doc::suspect_line(*suspect))
       << "</b></div>\n";
  if (const std::string per_gpu = doc::gpu_outcomes_line(doc::gpu_outcomes(v, suspect));
      !per_gpu.empty())
    os << "<div class=\"per-gpu\">" << html_escape(per_gpu) << "</div>\n";
  if (!reasons.empty()) os << "<ul>\n";
  const int shown = std::min(static_cast<int>(reasons.size()), max_reasons);
  for (int i = 0; i < shown; ++i) {
    const auto& r = reasons[static_cast<std::size_t>(i)];
    os << "<li><b>" << (r.outcome == doc::Outcome::kWarn ? "warn" : to_string(r.outcome)) << "</b> "
       << html_escape(r.rule + (r.subject.empty() ? "" : " " + r.subject)) << ": "
       << html_escape(r.message) << "</li>\n";
  }
  if (static_cast<int>(reasons.size()) > shown)
    os << "<li>and " << reasons.size() - shown
       << " more (every check is in the JSON document and the JUnit report)</li>\n";
  if (!reasons.empty()) os << "</ul>\n";
  for (const auto& c : v.caveats)
    os << "<div class=\"caveat\">" << html_escape(std::string("caveat: ") + to_string(c.kind))
       << (c.detail.empty() ? "" : " — " + html_escape(c.detail)) << "</div>\n";
  os << "<div class=\"note\">judged by " << html_escape(v.judged_by) << ", policy "
     << html_escape(v.policy) << "</div></div>\n";
  return os.str();
}

}  // namespace p2p::report
