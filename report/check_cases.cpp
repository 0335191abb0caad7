#include "report/check_cases.hpp"

#include <cstdio>
#include <map>

#include "acceptance/judge.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/json_util.hpp"
#include "document/bench_document.hpp"
#include "document/finding_status.hpp"
#include "document/suspects.hpp"
#include "report/markup_text.hpp"

namespace p2p::report {
namespace {

std::string join_name(const std::string& host, const std::string& check, const std::string& pair,
                      const std::string& size) {
  std::string name = (host.empty() ? std::string("this-host") : host) + "/" + check;
  if (!pair.empty()) name += "/" + pair;
  if (!size.empty()) name += "/" + size;
  return name;
}

std::string number(double v, const char* unit) {
  char b[64];
  std::snprintf(b, sizeof b, std::string(unit) == "%" ? "%.4g%s" : "%.4g %s", v, unit);
  return b;
}

// What a figure's case says: the failure's cause, the waiver's reason, else the measured value.
template <class Status>
std::string figure_message(Status status, const std::string& detail, const std::string& value) {
  if (doc::outcome_of(status) == doc::Outcome::kPass)
    return value.empty() ? "verified" : value + ", verified";
  const std::string word = doc::to_string(status);
  const std::string why = detail.empty() ? word : word + ": " + detail;
  return single_line(why);
}

std::string gate_pair(const topo::GateReason& r) {
  std::string pair;
  for (std::size_t i = 0; i < r.gpus.size(); ++i)
    pair += (i ? "-gpu" : "gpu") + std::to_string(r.gpus[i]);
  return pair;
}

void add_bench_cases(CheckSuite& s, const doc::BenchDocument& d) {
  for (const auto& b : d.bandwidth) {
    CheckCase c;
    c.name = join_name(d.hostname, b.case_name,
                       b.src + "->" + b.dst + (b.part.empty() ? "" : " " + b.part),
                       format_bytes(b.bytes, ByteStyle::kCompact));
    c.classname = "p2pcheck.bench." + b.case_name;
    c.outcome = doc::outcome_of(b.status);
    std::string value;
    if (b.median_gbps) value = number(*b.median_gbps, "GB/s") + " median";
    if (b.median_gbps && b.achieved_pct)
      value += " (" + number(*b.achieved_pct, "%") + " of " + b.ceiling_link + ")";
    c.message = figure_message(b.status, b.detail, value);
    // Time the samples took: each moved copies_per_sample copies of `bytes` at its rate.
    double seconds = 0;
    for (double g : b.samples_gbps) {
      if (g > 0) seconds += static_cast<double>(b.bytes) * b.copies_per_sample / (g * 1e9);
    }
    if (seconds > 0) c.time_s = seconds;
    s.cases.push_back(std::move(c));
  }
  for (const auto& l : d.latency) {
    CheckCase c;
    c.name = join_name(d.hostname, l.case_name, l.src + "->" + l.dst, "");
    c.classname = "p2pcheck.bench." + l.case_name;
    c.outcome = doc::outcome_of(l.status);
    c.message = figure_message(l.status, l.detail,
                               l.median_ns ? number(*l.median_ns, "ns") + " median" : "");
    s.cases.push_back(std::move(c));
  }
  if (!d.interrupted.empty()) {
    CheckCase c;
    c.name = join_name(d.hostname, "bench.completed", "", "");
    c.classname = "p2pcheck.bench";
    c.outcome = doc::Outcome::kError;
    c.message = single_line("interrupted: " + d.interrupted);
    s.cases.push_back(std::move(c));
  }
}

std::string placement(const doc::CollectiveResult& r) {
  if (r.src_rank && r.dst_rank)
    return "rank" + std::to_string(*r.src_rank) + "->rank" + std::to_string(*r.dst_rank);
  std::string p = std::to_string(r.nranks) + (r.nranks == 1 ? " rank" : " ranks");
  if (r.root) p += " root" + std::to_string(*r.root);
  return p;
}

void add_nccl_run(CheckSuite& s, const doc::NcclRun& run, const std::string& host,
                  const std::string& prefix) {
  for (const auto& r : run.results) {
    CheckCase c;
    const std::string op = prefix + r.collective + "." + r.dtype + "." +
                           doc::placement_word(r.in_place) + (r.cuda_graph ? ".graph" : "");
    c.name = join_name(host, op, placement(r), format_bytes(r.size_bytes, ByteStyle::kCompact));
    c.classname = "p2pcheck." + prefix + r.collective;
    c.outcome = doc::outcome_of(r.status);
    std::string value;
    // One rank moves nothing over a bus (busbw 0) and in place nothing at all: the time says it.
    if (r.nranks > 1 && r.busbw_gbps) value = "busbw " + number(*r.busbw_gbps, "GB/s") + ", ";
    if (r.time_us) value += number(*r.time_us, "us") + " per call, ";
    if (r.status == doc::CollectiveStatus::kOk) {
      c.message = value + (r.wrong_elements ? "verified" : "not verified");
    } else if (r.status == doc::CollectiveStatus::kWrong && r.wrong_elements) {
      c.message = single_line(std::to_string(*r.wrong_elements) + " wrong elements" +
                              (r.detail.empty() ? "" : ": " + r.detail));
    } else {
      c.message = figure_message(r.status, r.detail, "");
    }
    if (r.time_us && r.iterations > 0) c.time_s = *r.time_us * 1e-6 * r.iterations;
    s.cases.push_back(std::move(c));
  }
  for (const auto& e : run.rank_process_ends) {
    CheckCase c;
    c.name = join_name(host, prefix + "rank_process", "rank" + std::to_string(e.rank), "");
    c.classname = "p2pcheck." + prefix + "rank_process";
    c.outcome = doc::outcome_of(e.ended);
    c.message =
        single_line(doc::to_string(e.ended) + std::string(e.detail.empty() ? "" : ": " + e.detail) +
                    (e.last_case.empty() ? "" : " (last case " + e.last_case + ")"));
    s.cases.push_back(std::move(c));
  }
}

void add_nccl_cases(CheckSuite& s, const doc::BenchDocument& d, const std::string& source) {
  const doc::NcclResultsSection& report = doc::nccl_section_of(d, source);
  add_nccl_run(s, report.run, d.hostname, "nccl.");
  if (report.p2p_off) add_nccl_run(s, *report.p2p_off, d.hostname, "nccl.p2p_off.");
  for (const auto& v : report.verdicts) {
    CheckCase c;
    const std::string series = v.collective + "." + v.dtype + "." + doc::placement_word(v.in_place);
    std::string pair;
    if (v.src_rank && v.dst_rank)
      pair = "rank" + std::to_string(*v.src_rank) + "->rank" + std::to_string(*v.dst_rank);
    c.name = join_name(d.hostname, "nccl.min_busbw." + series, pair, "");
    c.classname = "p2pcheck.nccl.min_busbw";
    c.outcome = doc::outcome_of(v.status);
    std::string value = "min " + number(v.min_busbw_gbps, "GB/s");
    if (v.median_busbw_gbps)
      value = "median busbw " + number(*v.median_busbw_gbps, "GB/s") + ", " + value;
    c.message = single_line(v.detail.empty() ? value : v.detail + " (" + value + ")");
    s.cases.push_back(std::move(c));
  }
}

// The suspect and each GPU's own outcome beside the verdict, as dcgmi diag gives a pass or
// fail per GPU: "p2pcheck.suspect" (its line) and "p2pcheck.gpu.gpu5" ("fail: 61 of 128
// checks failed, 0 warned").
void add_suspect_properties(CheckSuite& s, const doc::RunVerdict& v) {
  const auto suspect = doc::suspect_of(v);
  if (suspect) s.properties.emplace_back("p2pcheck.suspect", doc::suspect_line(*suspect));
  for (const auto& g : doc::gpu_outcomes(v, suspect))
    s.properties.emplace_back("p2pcheck.gpu." + g.gpu,
                              std::string(doc::to_string(g.outcome)) + ": " +
                                  std::to_string(g.failed) + " of " + std::to_string(g.checks) +
                                  " checks failed, " + std::to_string(g.warned) + " warned");
}

}  // namespace

CheckSuite gate_suite(const topo::GateDecision& d, const std::string& hostname,
                      const std::string& timestamp) {
  CheckSuite s{"gate", hostname, timestamp, {}, {}};
  for (const auto& r : d.reasons) {
    CheckCase c;
    c.name = join_name(hostname, "gate." + r.rule, gate_pair(r), "");
    c.classname = "p2pcheck.gate";
    c.outcome = r.verdict == topo::GateVerdict::kBlock  ? doc::Outcome::kFail
                : r.verdict == topo::GateVerdict::kPass ? doc::Outcome::kPass
                                                        : doc::Outcome::kSkipped;
    c.message =
        single_line(r.verdict == topo::GateVerdict::kPending ? "pending: " + r.message : r.message);
    s.cases.push_back(std::move(c));
  }
  return s;
}

std::vector<CheckSuite> document_suites(const doc::BenchDocument& doc, const std::string& source) {
  std::vector<CheckSuite> out;
  if (doc.gate.decision && doc.gate.reasons)
    out.push_back(gate_suite(*doc.gate.reasons, doc.hostname, doc.started_utc));
  CheckSuite figures{
      doc.written_by == "nccl" ? "nccl" : "bench", doc.hostname, doc.started_utc, {}, {}};
  add_bench_cases(figures, doc);
  if (doc.nccl) add_nccl_cases(figures, doc, source);
  out.push_back(std::move(figures));
  // The verdict the document stores, or the default policy's judged now: JUnit must never show
  // green where `judge` says FAIL.
  out.push_back(verdict_suite(accept::verdict_of(doc, "export"), doc.hostname, doc.started_utc));
  make_case_names_unique(out);
  return out;
}

CheckSuite doctor_suite(const nlohmann::json& report, const std::string& hostname,
                        const std::string& source) {
  CheckSuite s{"doctor", hostname, "", {}, {}};
  try {
    if (!report.is_object() || report.value("schema", "") != "p2pcheck.doctor.report")
      throw InputError("not a p2pcheck.doctor.report (p2pcheck doctor --format json)");
    if (!report.at("version").is_number_integer() || report.at("version").get<std::int64_t>() != 1)
      throw InputError("p2pcheck.doctor.report version " + shown_value(report.at("version")) +
                       " is not supported");
    for (const auto& f : report.at("findings")) {
      const auto id = f.at("id").get<std::string>();
      const auto word = f.at("status").get<std::string>();
      const std::optional<doc::FindingStatus> status = doc::finding_status_named(word);
      if (!status) throw InputError("finding `" + id + "`: unknown status `" + word + "`");
      const auto summary = f.at("summary").get<std::string>();
      const auto hint = f.at("hint").get<std::string>();
      CheckCase c;
      c.name = join_name(hostname, "doctor." + id, "", "");
      c.classname = "p2pcheck.doctor";
      switch (*status) {
        case doc::FindingStatus::kPass:
          c.outcome = doc::Outcome::kPass;
          c.message = summary;
          break;
        case doc::FindingStatus::kWarn:
          c.outcome = doc::Outcome::kPass;  // doctor exits 0 on warnings: CI must not fail on them
          c.message = "warning: " + summary + (hint.empty() ? "" : " -> " + hint);
          break;
        case doc::FindingStatus::kFail:
          c.outcome = doc::Outcome::kFail;
          c.message = summary + (hint.empty() ? "" : " -> " + hint);
          break;
        case doc::FindingStatus::kSkip:
          c.outcome = doc::Outcome::kSkipped;
          c.message = summary;
          break;
        case doc::FindingStatus::kUnknown:
          c.outcome = doc::Outcome::kSkipped;
          c.message = "not verified from here: " + summary;
          break;
      }
      c.message = single_line(c.message);
      s.cases.push_back(std::move(c));
    }
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": " + e.what());
  }
  return s;
}

CheckSuite verdict_suite(const doc::RunVerdict& v, const std::string& hostname,
                         const std::string& timestamp) {
  CheckSuite s{"acceptance", hostname, timestamp, {}, {}};
  s.properties.emplace_back("p2pcheck.verdict", headline(v));
  for (const auto& c : v.caveats)
    s.properties.emplace_back(std::string("p2pcheck.caveat.") + doc::to_string(c.kind), c.detail);
  add_suspect_properties(s, v);
  for (const auto& k : v.checks) {
    CheckCase c;
    c.name = join_name(hostname, "acceptance." + k.rule, k.subject, "");
    c.classname = "p2pcheck.acceptance." + k.rule;
    c.outcome = k.outcome;
    c.message = single_line(k.outcome == doc::Outcome::kWarn ? "warning: " + k.message : k.message);
    s.cases.push_back(std::move(c));
  }
  return s;
}

CheckSuite compare_suite(const Comparison& cmp, const std::string& hostname,
                         const std::string& timestamp) {
  // Every check of the comparison's verdict: the run's caveats, its own verdict, then each
  // figure (regressed, lost and missing fail; missing allowed, not judged and one side only are
  // skipped).
  CheckSuite s{"compare", hostname, timestamp, {}, {}};
  s.properties.emplace_back("p2pcheck.verdict", headline(cmp.verdict));
  for (const auto& c : cmp.verdict.caveats)
    s.properties.emplace_back(std::string("p2pcheck.caveat.") + doc::to_string(c.kind), c.detail);
  add_suspect_properties(s, cmp.verdict);
  for (const auto& k : cmp.verdict.checks) {
    CheckCase c;
    c.name =
        join_name(hostname, k.rule == "compare" ? "compare" : "compare." + k.rule, k.subject, "");
    c.classname = "p2pcheck.compare";
    c.outcome = k.outcome;
    std::string text = k.message;
    if (k.rule == "compare") {
      const auto value = [&](const std::optional<double>& v) {
        return v ? number(*v, k.unit.c_str()) : "-";
      };
      text += "; baseline " + value(k.expected) + ", run " + value(k.value);
    }
    c.message = single_line(text);
    s.cases.push_back(std::move(c));
  }
  std::vector<CheckSuite> one{std::move(s)};
  make_case_names_unique(one);
  return std::move(one.front());
}

void make_case_names_unique(std::vector<CheckSuite>& suites) {
  std::map<std::string, int> seen;
  for (auto& s : suites) {
    for (auto& c : s.cases) ++seen[c.name];
  }
  std::map<std::string, int> used;
  for (auto& s : suites) {
    for (auto& c : s.cases) {
      if (seen[c.name] < 2) continue;
      const int n = ++used[c.name];
      if (n == 1) continue;
      std::string candidate;
      int k = n;
      do {
        candidate = c.name + " #" + std::to_string(k++);
      } while (seen.count(candidate) != 0);
      seen[candidate] = 1;
      c.name = candidate;
    }
  }
}

}  // namespace p2p::report
