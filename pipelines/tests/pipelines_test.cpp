// The GPU pipelines: .github/workflows/gpu.yml and pipelines/gitlab-gpu.yml parsed by a YAML parser
// (PyYAML, through Debian's python3; skipped, with the reason, without it), the Jenkinsfile
// checked for the same steps. Every pipeline builds and runs the GPU suite through
// pipelines/gpu-host.sh, compares against a kept baseline, exports JUnit and Prometheus with
// pipelines/export-results.sh, and keeps JSON, HTML and JUnit as artefacts.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "common/testing/yaml_as_json.hpp"

namespace {

const std::string kSource = P2P_SOURCE_DIR;

using p2p::testing::yaml_as_json;

std::string all_run_text(const nlohmann::json& steps) {
  std::string text;
  for (const auto& s : steps) {
    if (s.contains("run")) text += s.at("run").get<std::string>() + "\n";
  }
  return text;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(Pipelines, GithubWorkflowRunsTheGpuJobOnASelfHostedRunner) {
  std::string why;
  const auto wf = yaml_as_json(kSource + "/.github/workflows/gpu.yml", why);
  if (wf.is_null()) {
    ASSERT_TRUE(contains(why, "PyYAML")) << "the workflow is not valid YAML: " << why;
    GTEST_SKIP() << why;
  }
  // YAML 1.1 reads the key `on` as true; GitHub reads it as "on".
  EXPECT_TRUE(wf.contains("on") || wf.contains("true"));
  const auto& job = wf.at("jobs").at("gpu");
  const auto labels = job.at("runs-on").get<std::vector<std::string>>();
  EXPECT_EQ(labels.front(), "self-hosted");
  EXPECT_NE(std::find(labels.begin(), labels.end(), "nvidia-gpu"), labels.end());
  const auto& steps = job.at("steps");
  EXPECT_EQ(steps.at(0).at("uses").get<std::string>().rfind("actions/checkout@", 0), 0u);
  const std::string runs = all_run_text(steps);
  EXPECT_TRUE(contains(runs, "pipelines/gpu-host.sh \"$RESULTS\"")) << runs;
  EXPECT_TRUE(contains(runs, "P2P_BASELINE=baseline")) << "compare against the kept baseline";
  EXPECT_TRUE(contains(runs, "pipelines/export-results.sh \"$RESULTS\" baseline"));
  // The order: build and test, then export, then upload; the baseline saved only on success.
  int gpu = -1, exported = -1, upload = -1, save = -1;
  for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
    const auto& s = steps.at(i);
    const std::string run = s.value("run", ""), uses = s.value("uses", "");
    if (contains(run, "pipelines/gpu-host.sh")) gpu = i;
    if (contains(run, "pipelines/export-results.sh")) exported = i;
    if (uses.rfind("actions/upload-artifact@", 0) == 0) {
      upload = i;
      EXPECT_EQ(s.at("if"), "always()") << "results are uploaded from failed runs too";
      EXPECT_EQ(s.at("with").at("path"), "${{ env.RESULTS }}");
    }
    if (uses.rfind("actions/cache/save@", 0) == 0) {
      save = i;
      EXPECT_TRUE(contains(s.at("if").get<std::string>(), "success()"));
    }
  }
  EXPECT_GE(gpu, 0);
  EXPECT_LT(gpu, exported);
  EXPECT_LT(exported, upload);
  EXPECT_LT(upload, save);
}

TEST(Pipelines, GitlabJobKeepsJunitAsItsTestReport) {
  std::string why;
  const auto p = yaml_as_json(kSource + "/pipelines/gitlab-gpu.yml", why);
  if (p.is_null()) {
    ASSERT_TRUE(contains(why, "PyYAML")) << "the pipeline is not valid YAML: " << why;
    GTEST_SKIP() << why;
  }
  const auto& job = p.at("gpu-tests-and-acceptance");
  EXPECT_EQ(job.at("script").at(0).get<std::string>().rfind("pipelines/gpu-host.sh ", 0), 0u);
  EXPECT_EQ(
      job.at("after_script").at(0).get<std::string>().rfind("pipelines/export-results.sh ", 0), 0u);
  EXPECT_EQ(job.at("artifacts").at("when"), "always");
  EXPECT_TRUE(
      contains(job.at("artifacts").at("reports").at("junit").get<std::string>(), ".junit.xml"));
}

TEST(Pipelines, JenkinsfileHasTheSameSteps) {
  const std::string j = p2p::read_text_file(kSource + "/Jenkinsfile");
  int depth = 0, lowest = 0;
  for (char c : j) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    lowest = std::min(lowest, depth);
  }
  EXPECT_EQ(depth, 0) << "unbalanced braces";
  EXPECT_EQ(lowest, 0);
  EXPECT_TRUE(contains(j, "agent { label 'nvidia-gpu' }"));
  const auto gpu = j.find("pipelines/gpu-host.sh \"$RESULTS\"");
  const auto exported = j.find("pipelines/export-results.sh \"$RESULTS\"");
  const auto junit = j.find("junit testResults: \"${env.RESULTS}/*.junit.xml\"");
  const auto archive = j.find("archiveArtifacts artifacts: \"${env.RESULTS}/**\"");
  ASSERT_NE(gpu, std::string::npos);
  ASSERT_NE(exported, std::string::npos);
  ASSERT_NE(junit, std::string::npos);
  ASSERT_NE(archive, std::string::npos);
  EXPECT_LT(gpu, exported);
  EXPECT_LT(exported, junit);
  EXPECT_TRUE(contains(j, "P2P_BASELINE=\"$BASELINE_DIR\""));
  EXPECT_LT(j.find("post {"), exported) << "the export runs in post, so failed builds report too";
}

TEST(Pipelines, ExportScriptTurnsTheKeptRunIntoJunitPrometheusAndASideBySidePage) {
  // The script reads build/p2pcheck; run it on a copy of the H200 run in a scratch folder.
  const p2p::TempDir tmp("p2p_export_results");
  const std::string& dir = tmp.path();
  const std::string run = kSource + "/results/h200-vm-2026-12-02/";
  p2p::testing::run_captured("cp '" + run + "h200-bench.json' '" + dir + "/bench.json' && cp '" +
                             run + "h200-nccl.json' '" + dir + "/nccl.json'");
  const auto r =
      p2p::testing::run_captured("P2P_EXPORT_BIN='" + std::string(P2PCHECK_EXE) + "' '" + kSource +
                                 "/pipelines/export-results.sh' '" + dir + "' '" + dir + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* f : {"bench.junit.xml", "bench.prom", "nccl.junit.xml", "nccl.prom",
                        "bench-vs-baseline.html", "nccl-vs-baseline.html"}) {
    EXPECT_TRUE(p2p::try_read_text_file(dir + "/" + f).has_value()) << f << "\n" << r.out << r.err;
  }
}

// True when `markdown` has a heading (any level) whose text is `title`.
bool has_heading(const std::string& markdown, const std::string& title) {
  std::istringstream lines(markdown);
  for (std::string line; std::getline(lines, line);) {
    const auto text = line.find_first_not_of('#');
    if (text == 0 || text == std::string::npos || line[text] != ' ') continue;
    if (line.substr(text + 1) == title) return true;
  }
  return false;
}

// A pipeline that sends its reader to a section of the README or of a page in docs/ must name
// one that exists: a comment pointing nowhere is how the golden-topology advice got lost.
TEST(Pipelines, EveryDocSectionTheyCiteExists) {
  const std::regex cited(R"re((README|docs/[A-Za-z0-9_-]+\.md) "([^"]+)")re");
  int citations = 0;
  for (const char* file : {".github/workflows/gpu.yml", "pipelines/gitlab-gpu.yml", "Jenkinsfile",
                           "pipelines/gpu-host.sh", "pipelines/export-results.sh"}) {
    const std::string text = p2p::read_text_file(kSource + "/" + file);
    for (std::sregex_iterator m(text.begin(), text.end(), cited), end; m != end; ++m) {
      ++citations;
      const std::string page = (*m)[1] == "README" ? "README.md" : std::string((*m)[1]);
      const auto doc = p2p::try_read_text_file(kSource + "/" + page);
      ASSERT_TRUE(doc) << file << " cites " << page << ", which does not exist";
      EXPECT_TRUE(has_heading(*doc, (*m)[2]))
          << file << " cites " << page << " \"" << (*m)[2] << "\", which has no such section";
    }
  }
  EXPECT_GT(citations, 0) << "the pipelines no longer cite the docs: drop this test";
}

}  // namespace
