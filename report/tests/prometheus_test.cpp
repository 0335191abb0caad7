// Prometheus textfile from the real H200 documents: names, labels, base units, no timestamps,
// no series twice; read back by prometheus_client's exposition parser (skipped, with the
// reason, where that module is not installed).
#include "report/prometheus.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "document/bench_document.hpp"
#include "report/prometheus_metrics.hpp"
#include "report/tests/export_tools.hpp"

namespace p2p::report {
namespace {

const std::string kPrometheusRun = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/";

doc::BenchDocument kept_document(const std::string& name) {
  return doc::bench_document_from_json(read_json_file(kPrometheusRun + name), name);
}

bool has_line(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0 || text.find("\n" + prefix) != std::string::npos;
}

TEST(Exposition, EscapesLabelsAndWritesEachFamilyOnce) {
  Exposition e;
  e.gauge("p2pcheck_x", "help with \\ and\nnewline");
  e.add("p2pcheck_x", {{"a", "q\"uote\\back\nnl"}, {"empty", ""}, {"utf", "\xC3\xB6\xFF"}}, 1.5);
  e.add("p2pcheck_x", {{"a", "q\"uote\\back\nnl"}, {"utf", "\xC3\xB6\xFF"}},
        2);  // same series: dropped
  e.add("p2pcheck_x", {}, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(
      e.render(),
      "# HELP p2pcheck_x help with \\\\ and\\nnewline\n# TYPE p2pcheck_x gauge\n"
      "p2pcheck_x{a=\"q\\\"uote\\\\back\\nnl\",utf=\"\xC3\xB6\xEF\xBF\xBD\"} 1.5\np2pcheck_x NaN\n");
  EXPECT_EQ(e.duplicates(), 1);
  EXPECT_THROW(e.add("p2pcheck_undeclared", {}, 1), std::logic_error);
}

TEST(Exposition, UnixSecondsOfIso8601) {
  EXPECT_EQ(unix_seconds_of("1970-01-01T00:01:00Z"), 60.0);
  EXPECT_EQ(unix_seconds_of("2026-12-02T00:00:00Z"), 1796169600.0);
  EXPECT_FALSE(unix_seconds_of("2026-12-02 00:00:00").has_value());
  EXPECT_FALSE(unix_seconds_of("").has_value());
}

TEST(PrometheusMetrics, BenchDocumentAsDcgmLabelledGauges) {
  Exposition e;
  add_document_metrics(e, kept_document("h200-bench.json"));
  EXPECT_EQ(e.duplicates(), 0);
  const std::string text = e.render();
  EXPECT_TRUE(has_line(
      text,
      "p2pcheck_bandwidth_bytes_per_second{Hostname=\"vm\",gpu=\"0\",pci_bus_id=\"0000:00:06.0\","
      "modelName=\"NVIDIA H200\",peer_gpu=\"host\",direction=\"to_gpu\",case=\"h2d_ce\","
      "size_bytes=\"1073741824\"} 5"))
      << text.substr(0, 3000);
  EXPECT_TRUE(has_line(text, "p2pcheck_latency_seconds{Hostname=\"vm\",gpu=\"0\""));
  EXPECT_TRUE(has_line(text, "p2pcheck_verification_failed_words{"));
  EXPECT_TRUE(has_line(text, "p2pcheck_figures{Hostname=\"vm\",status=\"failed\"} 0"));
  EXPECT_TRUE(has_line(text, "p2pcheck_figures{Hostname=\"vm\",status=\"ok\"} 229"));
  EXPECT_TRUE(has_line(text, "p2pcheck_gate_passed{Hostname=\"vm\"} 1"));
  EXPECT_TRUE(has_line(text, "p2pcheck_run_interrupted{Hostname=\"vm\",command=\"bench\"} 0"));
  EXPECT_TRUE(
      has_line(text, "p2pcheck_last_run_timestamp_seconds{Hostname=\"vm\",command=\"bench\"} 17"));
}

// The worked example (docs/acceptance.md): gpu5 fails on its own, the seven others pass, and
// gpu5 is the suspect, each a series an alert can name.
TEST(PrometheusMetrics, EachGpusOwnOutcomeAndTheSuspectAreSeries) {
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/rtxpro6000-gpu5-x8.json";
  Exposition e;
  add_document_metrics(e, doc::bench_document_from_json(read_json_file(path), "x8"));
  EXPECT_EQ(e.duplicates(), 0);
  const std::string text = e.render();
  const std::string run = "{Hostname=\"rtxpro6000-gpu5-x8\",command=\"bench\",gpu=\"gpu";
  EXPECT_TRUE(has_line(text, "p2pcheck_gpu_passed" + run + "5\"} 0")) << text.substr(0, 2000);
  for (int g : {0, 1, 2, 3, 4, 6, 7})
    EXPECT_TRUE(has_line(text, "p2pcheck_gpu_passed" + run + std::to_string(g) + "\"} 1")) << g;
  EXPECT_TRUE(has_line(text, "p2pcheck_run_suspect" + run + "5\"} 1"));
  EXPECT_EQ(text.find("p2pcheck_run_suspect" + run + "0"), std::string::npos);
  // A healthy run has no suspect series.
  Exposition healthy;
  add_document_metrics(healthy, kept_document("h200-bench.json"));
  EXPECT_FALSE(has_line(healthy.render(), "p2pcheck_run_suspect{"));
}

TEST(PrometheusMetrics, OneRankNcclHasNoBusbwAndNoInPlaceAlgbw) {
  Exposition e;
  add_document_metrics(e, kept_document("h200-nccl.json"));
  EXPECT_EQ(e.duplicates(), 0);
  const std::string text = e.render();
  EXPECT_EQ(text.find("p2pcheck_nccl_busbw_bytes_per_second{"), std::string::npos);
  EXPECT_EQ(
      text.find(
          "p2pcheck_nccl_algbw_bytes_per_second{Hostname=\"vm\",case=\"all_reduce.float32.in_place\""),
      std::string::npos);
  EXPECT_TRUE(has_line(
      text,
      "p2pcheck_nccl_algbw_bytes_per_second{Hostname=\"vm\",case=\"all_reduce.float32.out_of_place\""));
  EXPECT_TRUE(has_line(
      text, "p2pcheck_nccl_time_seconds{Hostname=\"vm\",case=\"all_reduce.float32.in_place\""));
  EXPECT_TRUE(
      has_line(text, "p2pcheck_nccl_results{Hostname=\"vm\",p2p=\"allowed\",status=\"ok\"} 606"));
}

TEST(PrometheusMetrics, RealParserReadsEveryKeptDocument) {
  const std::string python = p2p::testing::python_with_prometheus_client();
  if (python.empty())
    GTEST_SKIP()
        << "python3 module prometheus_client not installed (Debian: python3-prometheus-client)";
  p2p::TempDir dir;
  for (const char* name : {"h200-bench.json", "h200-nccl.json"}) {
    Exposition e;
    add_document_metrics(e, kept_document(name));
    const std::string path = dir.file(std::string(name) + ".prom");
    write_text_file_atomically(path, e.render());
    const auto r = p2p::testing::check_prometheus_file(python, path);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.out;
    const std::string tail = " " + std::to_string(e.samples()) + "\n";
    EXPECT_TRUE(r.out.size() > tail.size() &&
                r.out.compare(r.out.size() - tail.size(), tail.size(), tail) == 0)
        << r.out << "every sample written is read back";
  }
}

TEST(PrometheusMetrics, PromtoolAcceptsTheBenchFile) {
  if (!p2p::testing::have_command("promtool"))
    GTEST_SKIP() << "promtool not installed (Debian: prometheus)";
  p2p::TempDir dir;
  Exposition e;
  add_document_metrics(e, kept_document("h200-bench.json"));
  const std::string path = dir.file("bench.prom");
  write_text_file_atomically(path, e.render());
  const auto r = p2p::testing::run_captured("promtool check metrics < '" + path + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace p2p::report

namespace p2p::report {
namespace {

// A document that records each GPU's UUID labels its figures with it, as dcgm-exporter does.
TEST(PrometheusMetrics, TheGpuUuidIsTheUuidLabel) {
  doc::BenchDocument d = kept_document("h200-bench.json");
  ASSERT_FALSE(d.gpus.empty());
  for (const auto& g : d.gpus)
    EXPECT_FALSE(g.uuid.has_value()) << "kept documents predate the field";
  d.gpus[0].uuid = "GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9";
  Exposition e;
  add_document_metrics(e, d);
  const std::string text = e.render();
  EXPECT_TRUE(has_line(
      text,
      "p2pcheck_bandwidth_bytes_per_second{Hostname=\"vm\",gpu=\"0\",pci_bus_id=\"0000:00:06.0\","
      "modelName=\"NVIDIA H200\",UUID=\"GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\",peer_gpu=\"host\""))
      << text.substr(0, 2000);
  EXPECT_TRUE(
      has_line(text,
               "p2pcheck_latency_seconds{Hostname=\"vm\",gpu=\"0\",pci_bus_id=\"0000:00:06.0\","
               "modelName=\"NVIDIA H200\",UUID=\"GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\""))
      << text.substr(0, 2000);
}

}  // namespace
}  // namespace p2p::report
