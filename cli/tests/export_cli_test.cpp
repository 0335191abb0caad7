// The built executable's machine outputs, as a CI job or node_exporter would use them: export
// of the kept H200 documents to JUnit (validated by xmllint against report/tests/junit.xsd) and
// to a Prometheus textfile (read by prometheus_client), --junit on doctor, gate and compare,
// and bad input as one line with exit 2. Needs no GPU.
#include <gtest/gtest.h>

#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "report/tests/export_tools.hpp"

namespace {

using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kSource = P2P_SOURCE_DIR;
const std::string kRun = kSource + "/results/h200-vm-2026-12-02/";
const std::string kFixtures = kSource + "/topology/tests/fixtures/";
const std::string kDoctorFixtures = kSource + "/doctor/tests/fixtures/";
const std::string kPolicy = kSource + "/results/policies/single-gpu-smoke.json";

CliResult run(const std::string& args) { return p2p::testing::run_captured(kExe + " " + args); }

int lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(ExportCli, KeptDocumentsBecomeValidJunit) {
  if (!p2p::testing::have_command("xmllint"))
    GTEST_SKIP() << "xmllint not installed (Debian: libxml2-utils)";
  p2p::TempDir dir;
  for (const char* doc : {"h200-bench.json", "h200-nccl.json"}) {
    const std::string out = dir.file(std::string(doc) + ".xml");
    const CliResult r = run("export " + kRun + doc + " --junit " + out);
    ASSERT_EQ(r.exit_code, 0) << doc << ": " << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(p2p::testing::junit_problems(out), "") << doc;
  }
  // stdout by default
  const CliResult r = run("export " + kRun + "h200-bench.json --junit -");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "name=\"vm/h2d_ce/host-&gt;gpu0/1GiB\"")) << r.out.substr(0, 500);
}

TEST(ExportCli, KeptDocumentsBecomeTextfilesAPrometheusParserReads) {
  const std::string python = p2p::testing::python_with_prometheus_client();
  if (python.empty())
    GTEST_SKIP()
        << "python3 module prometheus_client not installed (Debian: python3-prometheus-client)";
  p2p::TempDir dir;
  for (const char* doc : {"h200-bench.json", "h200-nccl.json"}) {
    const std::string out = dir.file(std::string(doc) + ".prom");
    const CliResult r = run("export " + kRun + doc + " --prom " + out);
    ASSERT_EQ(r.exit_code, 0) << doc << ": " << r.err;
    const auto check = p2p::testing::check_prometheus_file(python, out);
    EXPECT_EQ(check.exit_code, 0) << doc << ": " << check.out;
  }
}

TEST(ExportCli, DoctorAndGateOutputExportWithThisHostsName) {
  p2p::TempDir dir;
  const std::string doctor_json = dir.file("doctor.json"), gate_json = dir.file("gate.json");
  const CliResult d =
      run("doctor --facts " + kDoctorFixtures + "lxc-gsp-firmware-missing.json --format json");
  ASSERT_EQ(d.exit_code, 3) << d.err;  // CUDA cannot work there
  p2p::write_text_file_atomically(doctor_json, d.out);
  const CliResult g =
      run("gate --input " + kFixtures + "h200-vm.xml --policy " + kPolicy + " --format json");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  p2p::write_text_file_atomically(gate_json, g.out);

  const CliResult dj = run("export " + doctor_json + " --junit - --hostname node17");
  ASSERT_EQ(dj.exit_code, 0) << dj.err;
  EXPECT_TRUE(
      contains(dj.out, "<testcase name=\"node17/doctor.gsp.state\" classname=\"p2pcheck.doctor\""));
  EXPECT_TRUE(contains(dj.out, "<failure message=\"GSP not running on 8 of 8 GPUs"));
  EXPECT_TRUE(contains(dj.out, "<skipped message=\"no NVSwitch: no Fabric Manager needed\"/>"));
  const CliResult dp = run("export " + doctor_json + " --prom - --hostname node17");
  ASSERT_EQ(dp.exit_code, 0) << dp.err;
  EXPECT_TRUE(contains(
      dp.out, "p2pcheck_doctor_check_failed{Hostname=\"node17\",check=\"cuda.init\"} 1\n"));
  EXPECT_TRUE(contains(
      dp.out, "p2pcheck_last_run_timestamp_seconds{Hostname=\"node17\",command=\"doctor\"} "));

  const CliResult gp = run("export " + gate_json + " --prom - --hostname node17");
  ASSERT_EQ(gp.exit_code, 0) << gp.err;
  EXPECT_TRUE(contains(gp.out, "p2pcheck_gate_passed{Hostname=\"node17\"} 1\n")) << gp.out;
  const CliResult gj = run("export " + gate_json + " --junit - --hostname node17");
  EXPECT_TRUE(contains(gj.out, "name=\"node17/gate.policy.min_gpus\"")) << gj.out;

  if (p2p::testing::have_command("xmllint")) {
    const std::string xml = dir.file("doctor.xml");
    ASSERT_EQ(run("export " + doctor_json + " --junit " + xml).exit_code, 0);
    EXPECT_EQ(p2p::testing::junit_problems(xml), "");
  }
  const std::string python = p2p::testing::python_with_prometheus_client();
  if (!python.empty()) {
    for (const std::string& in : {doctor_json, gate_json}) {
      const std::string prom = in + ".prom";
      ASSERT_EQ(run("export " + in + " --prom " + prom).exit_code, 0);
      EXPECT_EQ(p2p::testing::check_prometheus_file(python, prom).exit_code, 0) << in;
    }
  }
}

TEST(ExportCli, JunitOnDoctorGateAndCompare) {
  p2p::TempDir dir;
  const std::string dx = dir.file("doctor.xml"), gx = dir.file("gate.xml"),
                    cx = dir.file("compare.xml");
  const CliResult d = run("doctor --facts " + kDoctorFixtures + "h200-vm-real.json --junit " + dx);
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_TRUE(contains(p2p::try_read_text_file(dx).value_or(""), "/doctor.gsp.state\""));
  const CliResult g = run("gate --input " + kFixtures + "rtxpro6000-vm.xml --policy " + kFixtures +
                          "policy-rtxpro6000.json --junit " + gx);
  const std::string gate_xml = p2p::try_read_text_file(gx).value_or("");
  EXPECT_TRUE(contains(gate_xml, "<testsuite name=\"gate\"")) << g.err;
  // The gate's exit code and its failures agree.
  EXPECT_EQ(g.exit_code == 1, contains(gate_xml, "<failure ")) << gate_xml;
  const CliResult c =
      run("compare " + kRun + "h200-bench.json " + kRun + "h200-bench.json --junit " + cx);
  EXPECT_EQ(c.exit_code, 0) << c.err;
  const std::string cmp = p2p::try_read_text_file(cx).value_or("");
  EXPECT_TRUE(contains(cmp, "name=\"vm/compare/h2d_ce host-&gt;gpu0 1GiB\"")) << cmp.substr(0, 800);
  EXPECT_FALSE(contains(cmp, "<failure "));
  if (p2p::testing::have_command("xmllint")) {
    for (const auto& f : {dx, gx, cx}) EXPECT_EQ(p2p::testing::junit_problems(f), "") << f;
  }
}

TEST(ReportCli, TwoDocumentsSideBySide) {
  p2p::TempDir dir;
  const std::string a = dir.file("vm.json"), b = dir.file("lxc.json");
  p2p::write_text_file_atomically(a, p2p::read_text_file(kRun + "h200-bench.json"));
  p2p::write_text_file_atomically(b, p2p::read_text_file(kRun + "h200-bench.json"));
  const CliResult r = run("report " + a + " " + b);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string page = p2p::try_read_text_file(dir.file("vm-vs-lxc.html")).value_or("");
  EXPECT_TRUE(contains(page, "beside")) << r.out;
  EXPECT_TRUE(contains(page, "Nothing moved beyond the tolerance"));
  const CliResult mixed = run("report " + a + " " + kRun + "h200-nccl.json --html -");
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_EQ(lines(mixed.err), 1) << mixed.err;
  EXPECT_EQ(run("report " + a + " " + b + " " + a).exit_code, 2);
}

TEST(ExportCli, BadInputIsOneLineExitTwo) {
  p2p::TempDir dir;
  const std::string not_ours = dir.file("other.json");
  p2p::write_text_file_atomically(not_ours, "{\"schema\": \"something.else\", \"version\": 1}\n");
  for (const std::string& args :
       {"export " + not_ours + " --junit -", "export " + dir.file("missing.json") + " --prom -",
        "export " + kRun + "h200-bench.json --to csv", "export " + kRun + "h200-bench.json",
        "export " + kRun + "h200-bench.json --junit " + kRun + "h200-bench.json",
        "export " + kRun + "h200-bench.json --junit - --prom -",
        "export " + kRun + "h200-bench.json --out " + dir.file("x.xml")}) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_TRUE(contains(run("export " + not_ours + " --junit -").err, "schema `something.else`"));
  EXPECT_TRUE(contains(run("export " + kRun + "h200-bench.json").err,
                       "give --junit FILE, --prom FILE or both"));
}

// One flag per output kind, as every other command names them: --junit and --prom, both at once
// if asked. The old --to/--out still writes the same file, with one line saying what to use.
TEST(ExportCli, JunitAndPromTogetherAndTheOldToOutStillWorks) {
  p2p::TempDir dir;
  const std::string doc = kRun + "h200-bench.json";
  const std::string xml = dir.file("run.xml"), prom = dir.file("run.prom");
  const CliResult both = run("export " + doc + " --junit " + xml + " --prom " + prom);
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_EQ(both.err, "");
  EXPECT_TRUE(contains(p2p::read_text_file(xml), "<testsuites"));
  EXPECT_TRUE(contains(p2p::read_text_file(prom), "p2pcheck_run_passed"));
  const std::string old_prom = dir.file("old.prom");
  const CliResult old = run("export " + doc + " --to prometheus --out " + old_prom);
  ASSERT_EQ(old.exit_code, 0) << old.err;
  EXPECT_EQ(
      old.err,
      "p2pcheck: warning: export: --to prometheus --out FILE is deprecated; use --prom FILE\n");
  EXPECT_TRUE(contains(p2p::read_text_file(old_prom), "p2pcheck_run_passed"));
  EXPECT_FALSE(contains(run("export --help").out, "--to")) << "the old names are hidden";
}

}  // namespace
