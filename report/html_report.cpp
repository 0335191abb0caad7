// The report's page frame: the style, the host and gate header, the topology matrix, and the
// bench and NCCL sections in order, their heatmaps from html_matrices.cpp and their charts from
// html_charts.cpp.
#include "report/html_report.hpp"

#include <sstream>

#include "acceptance/judge.hpp"
#include "document/bench_document.hpp"
#include "report/bench_matrix.hpp"
#include "report/figure_outcomes.hpp"
#include "report/html_charts.hpp"
#include "report/html_matrices.hpp"
#include "report/html_pairs.hpp"
#include "report/html_verdict.hpp"
#include "report/nccl_text.hpp"
#include "topology/classify.hpp"

namespace p2p::report {

namespace {

std::string header(const doc::BenchDocument& d, const std::string& source) {
  std::ostringstream os;
  os << "<h1>p2pcheck " << html_escape(d.written_by)
     << " report: " << html_escape(d.hostname.empty() ? "this host" : d.hostname)
     << "</h1>\n<table>\n";
  const auto row = [&](const std::string& k, const std::string& v) {
    os << "<tr><th class=\"l\">" << html_escape(k) << "</th><td class=\"l\">" << html_escape(v)
       << "</td></tr>\n";
  };
  row("results", source);
  row("started (UTC)", d.started_utc);
  row("p2pcheck", d.tool_version);
  row("driver", d.nvidia_driver_version.empty() ? "unknown" : d.nvidia_driver_version);
  row("CUDA driver / runtime", d.cuda_driver_version + " / " + d.cuda_runtime_version);
  row("environment", d.environment);
  row("topology", d.topology_source);
  os << "<tr><th class=\"l\">gate</th><td class=\"l\">";
  if (d.gate.decision) {
    const bool passed = *d.gate.decision == topo::GateVerdict::kPass;
    os << "<span class=\"" << (passed ? "pass" : "block") << "\">"
       << html_escape(topo::to_string(*d.gate.decision)) << "</span> ";
  } else {
    os << "not run ";
  }
  os << html_escape(d.gate.detail) << (d.skip_gate ? " (--skip-gate given)" : "")
     << "</td></tr>\n</table>\n";
  if (const std::string note = doc::logical_gpus_note(d); !note.empty()) {
    os << "<div class=\"note logical\">" << html_escape(note) << "</div>\n";
  }
  for (const auto& w : d.warnings)
    os << "<div class=\"note\">warning: " << html_escape(w) << "</div>\n";
  if (!d.interrupted.empty())
    os << "<div class=\"note\"><b>interrupted:</b> " << html_escape(d.interrupted) << "</div>\n";
  if (!d.gpus.empty()) {
    os << "<h2>GPUs</h2>\n<table><tr><th>GPU</th><th>device</th><th class=\"l\">PCI</th><th class=\"l\">name</th><th class=\"l\">link</th>"
          "<th>NUMA</th><th class=\"l\">CPUs</th></tr>\n";
    for (const auto& g : d.gpus) {
      os << "<tr><td>" << doc::gpu_label(g) << "</td><td>" << g.cuda_ordinal
         << "</td><td class=\"l\">" << html_escape(g.pci_bus_id) << "</td><td class=\"l\">"
         << html_escape(g.name) << "</td><td class=\"l\">"
         << html_escape(g.link.empty() ? "unknown" : g.link) << "</td><td>" << g.numa_node
         << "</td><td class=\"l\">" << html_escape(g.cpuset) << "</td></tr>\n";
    }
    os << "</table>\n";
  }
  return os.str();
}

// The snapshot's own display matrix (NV#, PIX, PXB, PHB, NODE, SYS) with CUDA's peer access
// beside it where the document has it. Left uncoloured: a SYS pair between sockets is how the
// host is built, not a fault, and must not be the reddest thing on the page; the heatmaps below
// say what each pair achieved.
std::string topology_section(const doc::BenchDocument& d) {
  if (!d.topology) return "";
  const std::vector<std::vector<std::string>> matrix = topo::display_matrix(*d.topology);
  if (matrix.size() < 2) return "";
  std::ostringstream os;
  os << "<h2>Topology</h2>\n<table class=\"topology\"><tr><th></th>";
  for (std::size_t j = 0; j < matrix.size(); ++j) os << "<th>GPU" << j << "</th>";
  os << "</tr>\n";
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    os << "<tr><th class=\"l\">GPU" << i << "</th>";
    for (std::size_t j = 0; j < matrix[i].size(); ++j) {
      // p2p_access is over the run's GPUs, which are the topology's only in a physical run.
      const bool no_p2p = i != j && d.logical_gpus == 0 && i < d.p2p_access.size() &&
                          j < d.p2p_access[i].size() && !d.p2p_access[i][j];
      os << "<td class=\"" << (no_p2p ? "topo nop2p" : "topo") << "\">"
         << html_escape(matrix[i][j] + (no_p2p ? " (no P2P)" : "")) << "</td>";
    }
    os << "</tr>\n";
  }
  os << "</table>\n";
  return os.str();
}

std::string bench_sections(const doc::BenchDocument& d, const doc::RunVerdict& verdict) {
  std::ostringstream os;
  const PairPaths paths(d);
  const FigureOutcomes outcomes(verdict);
  os << attention_section(d, paths, verdict);
  const auto bandwidth = bandwidth_matrices(d.bandwidth, true);
  const auto latency = latency_matrices(d.latency);
  if (!bandwidth.empty() || !latency.empty()) os << heat_legend();
  if (!bandwidth.empty())
    os << "<h2>Bandwidth at the largest size</h2>\n"
       << bandwidth_heatmaps(bandwidth, paths, outcomes);
  if (const std::string charts = size_sweep_charts(d); !charts.empty())
    os << "<h2>Size sweeps</h2>\n" << charts;
  if (!latency.empty()) os << "<h2>Latency</h2>\n";
  for (const auto& m : latency) os << render_heatmap(m, &paths, &outcomes);
  const doc::FigureCounts c = doc::count_figures(d);
  if (c.ok + c.failed + c.waived + c.errors > 0) {
    os << "<p>" << c.ok << " figures verified, " << c.failed << " FAILED verification, " << c.waived
       << " waived, " << c.errors << " errors</p>\n";
  }
  return os.str();
}

std::string nccl_run_section(const doc::NcclRun& run, const std::string& title) {
  std::ostringstream os;
  os << "<h2>" << html_escape(title) << "</h2>\n";
  os << nccl_operation_charts(run);
  os << "<pre>" << html_escape(format_transport_matrix(run) + format_pair_matrix(run))
     << "</pre>\n";
  os << "<details><summary>every size, as nccl-tests prints it</summary><pre>"
     << html_escape(format_environment(run.environment) + format_results_table(run))
     << "</pre></details>\n";
  return os.str();
}

std::string nccl_sections(const doc::BenchDocument& d) {
  if (!d.nccl) return "";
  const doc::NcclResultsSection& report = *d.nccl;
  std::string out = nccl_run_section(report.run, "NCCL");
  if (report.p2p_off) out += nccl_run_section(*report.p2p_off, "NCCL with NCCL_P2P_DISABLE=1");
  if (!report.verdicts.empty())
    out += "<pre>" + html_escape(format_verdicts(report.verdicts)) + "</pre>\n";
  return out;
}

}  // namespace

std::string render_html_report(const doc::BenchDocument& doc, const std::string& source) {
  const std::string nccl =
      nccl_sections(doc);  // first: a malformed section throws before any output
  const doc::RunVerdict verdict = accept::verdict_of(doc, "report");
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>p2pcheck "
     << html_escape(doc.written_by) << ": " << html_escape(doc.hostname) << "</title>\n"
     << report_style() << "<style>" << verdict_style() << "</style></head><body>\n"
     << verdict_banner(verdict) << header(doc, source) << topology_section(doc)
     << bench_sections(doc, verdict) << nccl << "</body></html>\n";
  return os.str();
}

}  // namespace p2p::report
