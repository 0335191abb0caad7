#include "report/prometheus_metrics.hpp"

#include <ctime>
#include <map>

#include "acceptance/judge.hpp"
#include "common/error.hpp"
#include "document/bench_document.hpp"
#include "document/finding_status.hpp"
#include "document/suspects.hpp"
#include "report/check_cases.hpp"

namespace p2p::report {
namespace {

// The dcgm-exporter labels of one endpoint of a figure ("gpu3", "host", "all").
struct GpuLabels {
  std::string gpu;  // "3", or the endpoint's own label when it is not a GPU
  std::string pci_bus_id;
  std::string model;
  std::string uuid;  // "" where the document has none (older runs): the label is then left out
};

class GpuIndex {
 public:
  explicit GpuIndex(const doc::BenchDocument& d) {
    for (const auto& g : d.gpus) by_label_[doc::gpu_label(g)] = &g;
  }
  GpuLabels of(const std::string& endpoint) const {
    GpuLabels l;
    l.gpu = endpoint.rfind("gpu", 0) == 0 ? endpoint.substr(3) : endpoint;
    if (const auto it = by_label_.find(endpoint); it != by_label_.end()) {
      l.pci_bus_id = it->second->pci_bus_id;
      l.model = it->second->name;
      l.uuid = it->second->uuid.value_or("");
    }
    return l;
  }

 private:
  std::map<std::string, const doc::GpuRecord*> by_label_;
};

// dcgm-exporter's labels of one GPU: Hostname, gpu, pci_bus_id, modelName and UUID (the label
// DCGM series are most reliably joined on; an empty one, from an older document, is left out).
Labels gpu_labels(const std::string& host, const GpuLabels& g) {
  return {{"Hostname", host},
          {"gpu", g.gpu},
          {"pci_bus_id", g.pci_bus_id},
          {"modelName", g.model},
          {"UUID", g.uuid}};
}

// A figure is filed under its GPU end: the source when it is a GPU ("from_gpu"), else the
// destination ("to_gpu"); peer_gpu is the other end, so host->gpu0 and gpu0->host of one case
// stay two series.
Labels figure_labels(const std::string& host, const GpuIndex& gpus, const std::string& src,
                     const std::string& dst, const std::string& case_name) {
  const bool from = doc::is_gpu_endpoint(src) || !doc::is_gpu_endpoint(dst);
  const GpuLabels g = gpus.of(from ? src : dst);
  const std::string peer = from ? dst : src;
  Labels l = gpu_labels(host, g);
  l.emplace_back("peer_gpu", doc::is_gpu_endpoint(peer) ? peer.substr(3) : peer);
  l.emplace_back("direction", from ? "from_gpu" : "to_gpu");
  l.emplace_back("case", case_name);
  return l;
}

void declare_all(Exposition& e) {
  e.gauge(
      "p2pcheck_bandwidth_bytes_per_second",
      "Median bandwidth of a verified copy (decimal, bytes per second) by case, GPU, peer and copy size");
  e.gauge("p2pcheck_bandwidth_ceiling_ratio",
          "Median bandwidth as a share of what the link could carry (0..1)");
  e.gauge(
      "p2pcheck_verification_failed_words",
      "32-bit words that failed verification over all samples of a figure (0: every byte right)");
  e.gauge("p2pcheck_latency_seconds",
          "Median latency of one dependent load by the GPU from the peer's memory");
  e.gauge("p2pcheck_figures",
          "Figures of the run by status: ok, failed (verification), waived, error");
  e.gauge("p2pcheck_nccl_busbw_bytes_per_second",
          "NCCL bus bandwidth as nccl-tests computes it (bytes per second); absent with one rank");
  e.gauge(
      "p2pcheck_nccl_algbw_bytes_per_second",
      "NCCL algorithm bandwidth (bytes per second); absent in place with one rank, where nothing moves");
  e.gauge("p2pcheck_nccl_time_seconds", "Median time of one NCCL call");
  e.gauge("p2pcheck_nccl_wrong_elements", "Elements a collective got wrong, over all ranks");
  e.gauge("p2pcheck_nccl_results", "NCCL results by status: ok, wrong, hang, error");
  e.gauge("p2pcheck_nccl_min_busbw_passed",
          "The --min-busbw threshold of a series: 1 passed, 0 failed");
  e.gauge("p2pcheck_gate_passed", "The gate let the host be measured: 1 passed, 0 blocked");
  e.gauge("p2pcheck_gate_blocking_reasons", "Reasons the gate blocked for");
  e.gauge("p2pcheck_doctor_check_failed",
          "A doctor check failed: 1 failed, 0 not (pass, warn, skip or unknown)");
  e.gauge("p2pcheck_doctor_checks", "Doctor checks by status: pass, warn, fail, skip, unknown");
  e.gauge("p2pcheck_run_interrupted",
          "The run was stopped by a signal before its end: 1 yes, 0 no");
  e.gauge("p2pcheck_run_passed",
          "The run's one verdict: 1 passed (with or without warnings), 0 failed or erred");
  e.gauge("p2pcheck_run_reasons",
          "Checks of the run's verdict that did not pass, by outcome: fail, error, warn");
  e.gauge("p2pcheck_run_caveat",
          "What was true of the whole run, by kind (interrupted, shared, logical, unverified, "
          "waived, gate_override): 1 yes, 0 no");
  e.gauge("p2pcheck_gpu_passed",
          "Each GPU's own outcome, as dcgmi diag gives one per GPU: 1 its checks passed (with or "
          "without warnings), 0 one failed; a pair's failure that names the suspect counts against "
          "the suspect alone");
  e.gauge("p2pcheck_run_suspect",
          "The GPU most of the verdict's reasons name (at least half of them): 1 for that GPU; no "
          "series when there is none");
  e.gauge("p2pcheck_run_suspect_place",
          "What most of the verdict's reasons share when it is no one GPU, by kind (host, switch, "
          "socket, path) and name: 1 for it; no series when there is none");
  e.gauge("p2pcheck_last_run_timestamp_seconds",
          "When the command last ran on this host (Unix time)");
}

void add_bench(Exposition& e, const doc::BenchDocument& d) {
  const GpuIndex gpus(d);
  std::map<std::string, int> by_status = {{"ok", 0}, {"failed", 0}, {"waived", 0}, {"error", 0}};
  for (const auto& b : d.bandwidth) {
    ++by_status[doc::to_string(b.status)];
    Labels l = figure_labels(d.hostname, gpus, b.src, b.dst, b.case_name);
    l.emplace_back("part", b.part);
    l.emplace_back("size_bytes", std::to_string(b.bytes));
    e.add("p2pcheck_verification_failed_words", l, static_cast<double>(b.bad_words));
    if (b.status != doc::FigureStatus::kOk || !b.median_gbps) continue;
    e.add("p2pcheck_bandwidth_bytes_per_second", l, *b.median_gbps * 1e9);
    if (b.achieved_pct) e.add("p2pcheck_bandwidth_ceiling_ratio", l, *b.achieved_pct / 100);
  }
  for (const auto& r : d.latency) {
    ++by_status[doc::to_string(r.status)];
    // Latency is the GPU's load from the peer's memory: always filed under the loading GPU.
    const GpuLabels g = gpus.of(r.src);
    Labels l = gpu_labels(d.hostname, g);
    l.emplace_back("peer_gpu", doc::is_gpu_endpoint(r.dst) ? r.dst.substr(3) : r.dst);
    l.emplace_back("case", r.case_name);
    if (r.status == doc::FigureStatus::kOk && r.median_ns)
      e.add("p2pcheck_latency_seconds", l, *r.median_ns * 1e-9);
  }
  if (d.written_by != "nccl") {
    for (const auto& [status, n] : by_status)
      e.add("p2pcheck_figures", {{"Hostname", d.hostname}, {"status", status}}, n);
  }
}

void add_nccl_run(Exposition& e, const doc::NcclRun& run, const std::string& host,
                  const std::string& prefix) {
  std::map<std::string, int> by_status = {{"ok", 0}, {"wrong", 0}, {"hang", 0}, {"error", 0}};
  for (const auto& r : run.results) {
    ++by_status[doc::to_string(r.status)];
    const std::string c = prefix + r.collective + "." + r.dtype + "." +
                          doc::placement_word(r.in_place) + (r.cuda_graph ? ".graph" : "");
    Labels l = {{"Hostname", host}, {"case", c}, {"nranks", std::to_string(r.nranks)}};
    if (r.src_rank && r.dst_rank) {
      l.emplace_back("rank", std::to_string(*r.src_rank));
      l.emplace_back("peer_rank", std::to_string(*r.dst_rank));
    }
    if (r.root) l.emplace_back("root", std::to_string(*r.root));
    l.emplace_back("size_bytes", std::to_string(r.size_bytes));
    if (r.wrong_elements)
      e.add("p2pcheck_nccl_wrong_elements", l, static_cast<double>(*r.wrong_elements));
    if (r.status != doc::CollectiveStatus::kOk) continue;
    if (r.time_us) e.add("p2pcheck_nccl_time_seconds", l, *r.time_us * 1e-6);
    if (r.nranks > 1 && r.busbw_gbps)
      e.add("p2pcheck_nccl_busbw_bytes_per_second", l, *r.busbw_gbps * 1e9);
    if (r.algbw_gbps && !(r.nranks <= 1 && r.in_place))
      e.add("p2pcheck_nccl_algbw_bytes_per_second", l, *r.algbw_gbps * 1e9);
  }
  for (const auto& [status, n] : by_status) {
    e.add(
        "p2pcheck_nccl_results",
        {{"Hostname", host}, {"p2p", prefix.empty() ? "allowed" : "disabled"}, {"status", status}},
        n);
  }
}

}  // namespace

std::optional<double> unix_seconds_of(const std::string& iso) {
  std::tm tm{};
  if (iso.size() != 20 || iso[19] != 'Z') return std::nullopt;
  const char* end = strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == nullptr || *end != 'Z') return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

void add_last_run(Exposition& e, const std::string& hostname, const std::string& command,
                  double unix_seconds) {
  declare_all(e);
  e.add("p2pcheck_last_run_timestamp_seconds", {{"Hostname", hostname}, {"command", command}},
        unix_seconds);
}

void add_gate_metrics(Exposition& e, const topo::GateDecision& d, const std::string& hostname) {
  declare_all(e);
  e.add("p2pcheck_gate_passed", {{"Hostname", hostname}}, d.passed ? 1 : 0);
  e.add("p2pcheck_gate_blocking_reasons", {{"Hostname", hostname}},
        static_cast<double>(d.blocking()));
}

// Every kind is exported, 0 where absent, so an alert on a caveat has a series to watch.
void add_verdict(Exposition& e, const doc::RunVerdict& v, const std::string& host,
                 const std::string& command) {
  const Labels run = {{"Hostname", host}, {"command", command}};
  e.add("p2pcheck_run_passed", run, doc::passes(v.outcome) ? 1 : 0);
  for (doc::Outcome o : {doc::Outcome::kFail, doc::Outcome::kError, doc::Outcome::kWarn}) {
    Labels l = run;
    l.emplace_back("outcome", doc::to_string(o));
    e.add("p2pcheck_run_reasons", l, v.count(o));
  }
  for (doc::CaveatKind k :
       {doc::CaveatKind::kInterrupted, doc::CaveatKind::kShared, doc::CaveatKind::kLogicalGpus,
        doc::CaveatKind::kUnverified, doc::CaveatKind::kWaived, doc::CaveatKind::kGateOverride}) {
    Labels l = run;
    l.emplace_back("kind", doc::to_string(k));
    e.add("p2pcheck_run_caveat", l, v.has_caveat(k) ? 1 : 0);
  }
  const auto suspect = doc::suspect_of(v);
  for (const auto& g : doc::gpu_outcomes(v, suspect)) {
    Labels l = run;
    l.emplace_back("gpu", g.gpu);
    e.add("p2pcheck_gpu_passed", l, g.outcome == doc::Outcome::kFail ? 0 : 1);
  }
  if (suspect && suspect->kind == doc::SuspectKind::kGpu) {
    Labels l = run;
    l.emplace_back("gpu", suspect->name);
    e.add("p2pcheck_run_suspect", l, 1);
  } else if (suspect) {
    Labels l = run;
    l.emplace_back("kind", doc::to_string(suspect->kind));
    l.emplace_back("name", suspect->name);
    e.add("p2pcheck_run_suspect_place", l, 1);
  }
}

void add_document_metrics(Exposition& e, const doc::BenchDocument& doc) {
  declare_all(e);
  if (doc.gate.decision && doc.gate.reasons) add_gate_metrics(e, *doc.gate.reasons, doc.hostname);
  add_bench(e, doc);
  if (doc.nccl) {
    const doc::NcclResultsSection& report = *doc.nccl;
    add_nccl_run(e, report.run, doc.hostname, "");
    if (report.p2p_off) add_nccl_run(e, *report.p2p_off, doc.hostname, "p2p_off.");
    for (const auto& v : report.verdicts) {
      if (v.status == doc::ThresholdStatus::kNotJudged) continue;
      Labels l = {{"Hostname", doc.hostname},
                  {"case", v.collective + "." + v.dtype + "." + doc::placement_word(v.in_place)}};
      if (v.src_rank && v.dst_rank) {
        l.emplace_back("rank", std::to_string(*v.src_rank));
        l.emplace_back("peer_rank", std::to_string(*v.dst_rank));
      }
      e.add("p2pcheck_nccl_min_busbw_passed", l, v.status == doc::ThresholdStatus::kPass ? 1 : 0);
    }
  }
  e.add("p2pcheck_run_interrupted", {{"Hostname", doc.hostname}, {"command", doc.written_by}},
        doc.interrupted.empty() ? 0 : 1);
  add_verdict(e, accept::verdict_of(doc, "export"), doc.hostname, doc.written_by);
  if (const auto t = unix_seconds_of(doc.started_utc))
    add_last_run(e, doc.hostname, doc.written_by, *t);
}

void add_doctor_metrics(Exposition& e, const nlohmann::json& report, const std::string& hostname,
                        const std::string& source) {
  declare_all(e);
  // Reading it as cases checks the report (schema, version, every finding's fields) first.
  (void)doctor_suite(report, hostname, source);
  using doc::FindingStatus;
  // Keyed by the word, so the samples come out in the same (alphabetical) order as ever.
  std::map<std::string, int> by_status;
  for (FindingStatus s : {FindingStatus::kPass, FindingStatus::kWarn, FindingStatus::kFail,
                          FindingStatus::kSkip, FindingStatus::kUnknown})
    by_status[doc::to_string(s)] = 0;
  for (const auto& f : report.at("findings")) {
    // doctor_suite above refused any other word.
    const FindingStatus status = *doc::finding_status_named(f.at("status").get<std::string>());
    ++by_status[doc::to_string(status)];
    e.add("p2pcheck_doctor_check_failed",
          {{"Hostname", hostname}, {"check", f.at("id").get<std::string>()}},
          status == FindingStatus::kFail ? 1 : 0);
  }
  for (const auto& [status, n] : by_status)
    e.add("p2pcheck_doctor_checks", {{"Hostname", hostname}, {"status", status}}, n);
}

}  // namespace p2p::report
