// scripts/lint.sh's two checks that need no compiler: function length in the sources clang-tidy
// does not parse (CUDA code, headers) and includes between folders (scripts/layers.txt). Each is
// planted in a small git repository that carries the real scripts and configurations, and the
// real lint.sh runs over it, with a compile database of one CPU source so that clang-tidy has
// something to read.
#include <gtest/gtest.h>

#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

const std::string kSource = P2P_SOURCE_DIR;

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// A function of `lines` lines (closing brace line minus opening brace line), as the kernels write
// them: a __global__ function with braces in its comments and strings that must not count.
std::string function_of(const std::string& name, int lines) {
  std::string text = "__global__ void " + name + "(int* out) {\n";
  for (int i = 1; i < lines; ++i) {
    text += (i % 3 == 0) ? "  // a brace in a comment: {\n"
                         : "  out[0] += " + std::to_string(i) + ";\n";
  }
  return text + "}\n";
}

struct LintRepo {
  p2p::TempDir dir{"p2p_lint"};

  LintRepo() {
    for (const char* path :
         {"scripts/lint.sh", "scripts/lib/lint_units.py", "scripts/lib/function_length.py",
          "scripts/lib/include_layers.py", ".clang-format", ".clang-tidy"}) {
      write(path, p2p::read_text_file(kSource + "/" + path));
    }
    write("scripts/size-budget.txt", "# FILE  WHY\n");
    write("scripts/layers.txt", "common:\nkernels: common\n");
    write("common/sum.hpp",
          "#pragma once\n\nnamespace p2p {\n\nint sum(int a, int b);\n\n}  // namespace p2p\n");
    write(
        "common/sum.cpp",
        "#include \"common/sum.hpp\"\n\nnamespace p2p {\n\nint sum(int a, int b) { return a + b; }\n\n}  "
        "// namespace p2p\n");
    write("kernels/fill.cu", "#include \"common/sum.hpp\"\n\n" + function_of("fill", 60));
    write("build/compile_commands.json",
          "[{\"directory\": \"" + dir.file("build") + "\", \"file\": \"" +
              dir.file("common/sum.cpp") + "\", \"command\": \"clang++ -std=c++17 -I" + dir.path() +
              " -o common/CMakeFiles/p2p_common.dir/sum.cpp.o -c " + dir.file("common/sum.cpp") +
              "\"}]\n");
  }

  void write(const std::string& path, const std::string& text) const {
    const std::string full = dir.file(path);
    ASSERT_EQ(p2p::testing::run_captured("mkdir -p \"$(dirname '" + full + "')\"").exit_code, 0);
    p2p::write_text_file_atomically(full, text);
  }

  // Formats the planted sources as the project does, then runs the check as CI does.
  p2p::testing::CliResult lint() const {
    const std::string in_repo = "cd '" + dir.path() + "' && ";
    EXPECT_EQ(p2p::testing::run_captured(in_repo + "git init -q . && git add -A").exit_code, 0);
    EXPECT_EQ(p2p::testing::run_captured(in_repo + "bash scripts/lint.sh --fix").exit_code, 0);
    return p2p::testing::run_captured(in_repo + "bash scripts/lint.sh build");
  }
};

TEST(LintChecks, ACleanTreePasses) {
  const LintRepo repo;
  const auto r = repo.lint();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(
      has(r.out, "lint: layers: every include between folders is one scripts/layers.txt allows"))
      << r.out;
  EXPECT_TRUE(
      has(r.out, "sources outside clang-tidy's units (CUDA code, headers), measured by their text"))
      << r.out;
}

TEST(LintChecks, ACudaFunctionOverSixtyLinesFailsUnlessTheBudgetListsIt) {
  const LintRepo repo;
  repo.write("kernels/fill.cu", "#include \"common/sum.hpp\"\n\n" + function_of("fill", 61));
  auto r = repo.lint();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(
      has(r.err, "lint: kernels/fill.cu:fill: a function over 60 lines: split it by subject"))
      << r.err;

  repo.write("scripts/size-budget.txt", "kernels/fill.cu:fill   one kernel, one loop\n");
  r = repo.lint();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(LintChecks, AnIncludeTheLayersDoNotAllowFailsNamingFileLineAndHeader) {
  const LintRepo repo;
  repo.write("kernels/fill.hpp",
             "#pragma once\n\nnamespace p2p {\n\nvoid fill();\n\n}  // namespace p2p\n");
  repo.write(
      "common/sum.hpp",
      "#pragma once\n\n#include \"kernels/fill.hpp\"\n\nnamespace p2p {\n\nint sum(int a, int b);\n\n}  "
      "// namespace p2p\n");
  const auto r = repo.lint();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(
      has(r.err, "common/sum.hpp:3: common may not include kernels (its header kernels/fill.hpp)"))
      << r.err;
}

TEST(LintChecks, ALayerNamingAFolderBelowItIsRefusedAsACycle) {
  const LintRepo repo;
  repo.write("scripts/layers.txt", "common: kernels\nkernels: common\n");
  const auto r = repo.lint();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(has(
      r.err, "scripts/layers.txt:1: common may include kernels, which is not on a line above it"))
      << r.err;
}

// The text measurer agrees with clang-tidy where both read: what it finds over 60 lines in the
// CPU sources is what the size budget lists for them (clang-tidy's findings), and nothing else.
TEST(LintChecks, TheTextMeasurerFindsWhatClangTidyFoundInTheCpuSources) {
  const auto r = p2p::testing::run_captured(
      "cd '" + kSource +
      "' && python3 scripts/lib/function_length.py doctor/facts_json.cpp "
      "topology/snapshot_json.cpp doctor/rules/rules_pcie.cpp doctor/knowledge/documented_nvml.cpp "
      "doctor/verdict/verdict.cpp common/file_io.cpp");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "doctor/facts_json.cpp:facts_from_json ")) << r.out;
  EXPECT_TRUE(has(r.out, "topology/snapshot_json.cpp:from_json ")) << r.out;
  EXPECT_TRUE(has(r.out, "doctor/rules/rules_pcie.cpp:check_env ")) << r.out;
  EXPECT_TRUE(has(r.out, "doctor/knowledge/documented_nvml.cpp:nvml_table ")) << r.out;
  EXPECT_FALSE(has(r.out, "doctor/verdict/verdict.cpp")) << r.out;
  EXPECT_FALSE(has(r.out, "common/file_io.cpp")) << r.out;
}

}  // namespace
