// "Did you mean" over a command tree like p2pcheck's: which word was mistyped, and the nearest
// real command or option.
#include "cli/suggest.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using p2p::cli::closest;
using p2p::cli::edit_distance;
using p2p::cli::mistake_in;

TEST(EditDistance, InsertDeleteReplaceAndSwap) {
  EXPECT_EQ(edit_distance("bench", "bench"), 0u);
  EXPECT_EQ(edit_distance("benchh", "bench"), 1u);
  EXPECT_EQ(edit_distance("bnech", "bench"), 1u);
  EXPECT_EQ(edit_distance("bxnch", "bench"), 1u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("doctor", "export"), 5u);
}

TEST(Closest, OneNearCandidateOrTheOnlyOneItBegins) {
  const std::vector<std::string> commands = {"doctor", "topo",  "gate",    "vm",
                                             "bench",  "nccl",  "compare", "report",
                                             "export", "check", "node"};
  EXPECT_EQ(closest("benchh", commands), "bench");
  EXPECT_EQ(closest("Doctr", commands), "doctor");
  EXPECT_EQ(closest("comp", commands), "compare") << "the only command it begins";
  EXPECT_EQ(closest("vn", commands), "vm");
  EXPECT_EQ(closest("x", commands), std::nullopt) << "one letter is no evidence";
  EXPECT_EQ(closest("frobnicate", commands), std::nullopt);
  EXPECT_EQ(closest("ode", {"node", "code"}), std::nullopt) << "a tie names neither";
  EXPECT_EQ(closest("--sampels", {"--samples", "--sizes", "-h"}), "--samples");
  EXPECT_EQ(closest("--tolerance", {"--tolerance-pct", "--format"}), "--tolerance-pct");
}

// A tree like p2pcheck's: commands with options, one with subcommands and a required one.
struct Tree {
  CLI::App root{"test", "p2pcheck"};
  int samples = 0;
  std::vector<std::string> pair, files;
  std::string format;
  Tree() {
    root.require_subcommand(1);
    CLI::App* bench = root.add_subcommand("bench", "measure");
    bench->add_option("--samples", samples, "samples");
    bench->add_option("--gpus", files, "gpus")->delimiter(',');
    bench->allow_extras();
    CLI::App* topo = root.add_subcommand("topo", "topology");
    topo->add_option("--input", format, "file");
    topo->add_subcommand("diff", "two")->add_option("A B", pair, "two")->expected(2);
    CLI::App* vm = root.add_subcommand("vm", "cliques");
    vm->require_subcommand(1);
    vm->add_subcommand("plan", "plan");
    vm->add_subcommand("compare", "compare");
    root.add_subcommand("compare", "two runs")->add_option("files", files, "runs");
    root.add_subcommand("nccl-rank", "internal")->group("");
  }
};

TEST(MistakeIn, AMistypedCommandAtAnyLevel) {
  Tree t;
  EXPECT_EQ(mistake_in(t.root, {"benchh"}), "unknown command 'benchh'; did you mean 'bench'?");
  EXPECT_EQ(mistake_in(t.root, {"topo", "--input", "x.xml", "difff", "a", "b"}),
            "unknown command 'topo difff'; did you mean 'topo diff'?");
  EXPECT_EQ(mistake_in(t.root, {"frobnicate"}),
            "unknown command 'frobnicate' (p2pcheck --help lists the commands)");
  EXPECT_EQ(mistake_in(t.root, {}), "'p2pcheck' needs a command: bench, topo, vm, compare");
  EXPECT_EQ(mistake_in(t.root, {"vm"}), "'p2pcheck vm' needs a command: plan, compare");
}

TEST(MistakeIn, AMistypedOptionOfTheCommandItFollows) {
  Tree t;
  EXPECT_EQ(mistake_in(t.root, {"bench", "--sampels", "5"}),
            "bench: unknown option '--sampels'; did you mean '--samples'?");
  EXPECT_EQ(mistake_in(t.root, {"bench", "--sampels=5"}),
            "bench: unknown option '--sampels'; did you mean '--samples'?");
  EXPECT_EQ(mistake_in(t.root, {"bench", "--frobnicate"}),
            "bench: unknown option '--frobnicate' (p2pcheck bench --help lists the options; Google "
            "Benchmark's flags are passed as --benchmark_NAME=VALUE)");
  EXPECT_EQ(mistake_in(t.root, {"topo", "diff", "--zzz", "a", "b"}),
            "topo diff: unknown option '--zzz' (p2pcheck topo diff --help lists the options)");
}

TEST(MistakeIn, NothingWhereEveryWordIsKnown) {
  Tree t;
  EXPECT_EQ(mistake_in(t.root, {"bench", "--samples", "5", "--gpus", "0,1"}), std::nullopt);
  EXPECT_EQ(mistake_in(t.root, {"bench", "--benchmark_filter=h2d"}), std::nullopt)
      << "bench passes Google Benchmark's flags on";
  EXPECT_EQ(mistake_in(t.root, {"topo", "diff", "a.xml", "b.xml"}), std::nullopt);
  EXPECT_EQ(mistake_in(t.root, {"topo", "--input", "difff"}), std::nullopt)
      << "an option's value is not a command";
  EXPECT_EQ(mistake_in(t.root, {"compare", "benchh", "run.json"}), std::nullopt)
      << "a command that takes files takes any word";
  EXPECT_EQ(mistake_in(t.root, {"bench", "--samples", "-5"}), std::nullopt)
      << "a negative number is a value";
  EXPECT_EQ(mistake_in(t.root, {"nccl-rank", "--anything"}), std::nullopt)
      << "internal commands are not checked";
  EXPECT_EQ(mistake_in(t.root, {"bench", "--", "--whatever"}), std::nullopt);
}

}  // namespace
