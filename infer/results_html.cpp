#include "infer/results_html.hpp"

#include <cstdio>
#include <sstream>

#include "common/byte_size.hpp"
#include "infer/groups.hpp"
#include "infer/plan_text.hpp"
#include "infer/results_text.hpp"
#include "report/html_report.hpp"
#include "report/html_verdict.hpp"

namespace p2p::infer {

namespace {

using report::html_escape;

std::string cell(const std::optional<double>& v, int digits = 1) {
  if (!v) return "<td class=\"na\">-</td>";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, *v);
  return std::string("<td>") + buf + "</td>";
}

void group_section(std::ostringstream& out, const GroupResult& g) {
  out << "<h2>TP=" << g.tp << " GPUs " << html_escape(format_gpu_list(g.gpus))
      << "</h2>\n<p class=\"note\">" << html_escape(g.signature + "; " + g.description) << "</p>\n";
  if (!g.ipc.empty()) {
    out << "<h3>CUDA IPC check</h3>\n<table><tr><th>writer</th><th>owner</th><th class=\"l\">result</th></tr>\n";
    for (const IpcPairResult& p : g.ipc) {
      out << "<tr" << (p.status == doc::IpcStatus::kOk ? "" : " class=\"bad\"") << "><td>rank "
          << p.writer_rank << " (GPU " << p.writer_gpu << ")</td><td>rank " << p.owner_rank
          << " (GPU " << p.owner_gpu << ")</td><td class=\"l\">"
          << html_escape(to_string(p.status) + (p.detail.empty() ? "" : ": " + p.detail))
          << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  out << "<table><tr><th class=\"l\">message</th><th>bytes</th><th>p50 us</th><th>p90 us</th><th>p99 us</th>"
         "<th>max us</th><th>spread</th><th>busbw GB/s</th><th>cost/step us</th>"
      << (g.p2p_off ? "<th>P2P off p50 us</th><th>P2P off cost/step us</th>" : "") << "</tr>\n";
  for (const MessageResult& m : g.p2p_on.messages) {
    out << "<tr" << (m.status == doc::MessageStatus::kOk ? "" : " class=\"bad\"")
        << "><td class=\"l\">" << html_escape(m.message) << "</td><td>"
        << html_escape(format_bytes(m.bytes, ByteStyle::kSpaced)) << "</td>";
    if (m.latency) {
      out << cell(m.latency->p50_us) << cell(m.latency->p90_us) << cell(m.latency->p99_us)
          << cell(m.latency->max_us) << cell(m.latency->spread, 2) << cell(m.busbw_gbps)
          << cell(m.step_us);
    } else {
      out << "<td class=\"l\" colspan=\"7\">"
          << html_escape(to_string(m.status) + (m.detail.empty() ? "" : ": " + m.detail))
          << "</td>";
    }
    if (g.p2p_off) {
      const MessageResult* off = find_message(*g.p2p_off, m.message);
      const bool measured = off != nullptr && off->latency;
      out << cell(measured ? std::optional<double>(off->latency->p50_us) : std::nullopt)
          << cell(measured ? off->step_us : std::nullopt);
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
  for (const std::string& p : g.p2p_on.problems)
    out << "<p class=\"block\">" << html_escape(p) << "</p>\n";
}

}  // namespace

std::string render_infer_html(const InferDocument& d) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>p2pcheck infer: "
      << html_escape(d.hostname) << "</title>\n"
      << report::report_style()
      << (d.verdict ? std::string("<style>") + report::verdict_style() + "</style>" : "")
      << "</head><body>\n<h1>p2pcheck infer: " << html_escape(d.hostname) << "</h1>\n";
  // The page opens with the run's verdict; a version 1 document has none and opens as it did.
  if (d.verdict) out << report::verdict_banner(*d.verdict);
  out << "<p>" << html_escape(describe_model(d.plan.model)) << "</p>\n";
  if (const std::string note = logical_note(d); !note.empty())
    out << "<p class=\"block\">" << html_escape(note) << "</p>\n";
  out << "<p class=\"note\">" << d.measure.calls << " calls per message in CUDA graphs of "
      << d.measure.calls_per_graph << "; cost/step = " << d.plan.calls_per_step
      << " calls x p50 (decode: per generated token; prefill: per prompt pass); spread = p99/p50. "
      << html_escape(d.started_utc + (d.nccl_version.empty() ? "" : ", NCCL " + d.nccl_version))
      << "</p>\n";
  out << "<h2>Ranking by " << html_escape(d.ranking_message) << " (P2P on)</h2>\n<ul>\n";
  for (const TpRanking& r : d.rankings) {
    out << "<li>" << html_escape(format_ranking_line(d, r));
    if (const auto best = recommended(r)) {
      out << " <span class=\"pass\">recommended: GPUs "
          << html_escape(format_gpu_list(d.groups.at(best->group).gpus)) << "</span>";
    }
    out << "</li>\n";
  }
  out << "</ul>\n";
  if (d.budget_us_per_token) {
    out << "<h2>Budget " << html_escape(*d.budget_us_per_token) << " us per token</h2>\n<ul>\n";
    for (const BudgetVerdict& v : d.verdicts) {
      out << "<li><span class=\"" << (v.pass ? "pass\">PASS" : "block\">FAIL")
          << "</span> TP=" << v.tp << " " << html_escape(v.message)
          << (v.gpus.empty() ? "" : " GPUs " + html_escape(format_gpu_list(v.gpus))) << ": "
          << html_escape(v.detail) << "</li>\n";
    }
    out << "</ul>\n";
  }
  for (const GroupResult& g : d.groups) group_section(out, g);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace p2p::infer
