// --help in plain words: CLI11's type names read into placeholders, ranges and defaults, and a
// whole option list rendered by the formatter.
#include "cli/help_format.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using p2p::cli::default_worth_showing;
using p2p::cli::HelpFormatter;
using p2p::cli::name_placeholder;
using p2p::cli::plain_type;

TEST(PlainType, NumbersAndRangesInPlainWords) {
  const auto n = plain_type("INT:INT in [1 - 64]");
  EXPECT_EQ(n.placeholder, "N");
  EXPECT_EQ(n.range, "1 to 64");
  EXPECT_TRUE(n.bounded);
  const auto x = plain_type("FLOAT:FINITE:FLOAT in [0.1 - 3600]");
  EXPECT_EQ(x.placeholder, "NUM");
  EXPECT_EQ(x.range, "0.1 to 3600");
  EXPECT_DOUBLE_EQ(x.low, 0.1);
  EXPECT_DOUBLE_EQ(x.high, 3600);
  EXPECT_EQ(plain_type("UINT:POSITIVE").range, "> 0");
  EXPECT_EQ(plain_type("INT:NONNEGATIVE").range, ">= 0");
}

TEST(PlainType, ChoicesBecomeThePlaceholderAndTheCommandsOwnWordsStay) {
  const auto c = plain_type("TEXT:{pinned,hugepages}");
  EXPECT_EQ(c.placeholder, "pinned|hugepages");
  EXPECT_EQ(c.choices, (std::vector<std::string>{"pinned", "hugepages"}));
  EXPECT_EQ(plain_type("TEXT").placeholder, "");
  EXPECT_EQ(plain_type("FILE|-").placeholder, "FILE|-");
  EXPECT_EQ(plain_type("text|json").placeholder, "text|json");
  EXPECT_EQ(plain_type("TEXT:FILE").placeholder, "FILE");
  EXPECT_EQ(plain_type("TEXT:DIR").placeholder, "DIR");
  EXPECT_EQ(plain_type("TEXT:PATH(existing)").placeholder, "PATH");
  // A command's own word is kept even when a check names a path kind.
  EXPECT_EQ(plain_type("FILE.prom:FILE").placeholder, "FILE.prom");
}

TEST(NamePlaceholder, TheLongNameInCapitalsAsArgparseDoes) {
  EXPECT_EQ(name_placeholder("--gpus"), "GPUS");
  EXPECT_EQ(name_placeholder("--nccl-log"), "NCCL_LOG");
  EXPECT_EQ(name_placeholder("--"), "VALUE");
}

TEST(DefaultWorthShowing, OnlyRealDefaultsTheDescriptionDoesNotAlreadyGive) {
  const auto range = plain_type("INT:INT in [1 - 64]");
  EXPECT_TRUE(default_worth_showing("20", "Timed samples", range));
  EXPECT_FALSE(default_worth_showing("0", "Logical GPUs", range)) << "0 marks 'not given'";
  EXPECT_FALSE(default_worth_showing("20", "Timed samples (default: 20)", range));
  EXPECT_FALSE(default_worth_showing("", "Write to FILE", plain_type("TEXT")));
  EXPECT_FALSE(default_worth_showing("[]", "GPUs", plain_type("INT")));
  EXPECT_TRUE(default_worth_showing("[1,2,4,8]", "sizes", plain_type("INT:POSITIVE")));
  EXPECT_FALSE(default_worth_showing("[0,2]", "sizes", plain_type("INT:POSITIVE")));
  const auto choice = plain_type("TEXT:{auto,cudaMalloc}");
  EXPECT_TRUE(default_worth_showing("auto", "Buffers", choice));
  EXPECT_FALSE(default_worth_showing("", "Buffers", choice));
}

// A whole subcommand through the formatter, as --help prints it.
std::string help_of_a_sample_command() {
  CLI::App root{"root", "p2pcheck"};
  root.formatter(std::make_shared<HelpFormatter>());
  root.option_defaults()->always_capture_default();
  static int samples = 20, logical = 0;
  static double timeout_s = 45;
  static std::string json, memory = "pinned";
  static std::vector<int> gpus;
  static bool full = false;
  CLI::App* app = root.add_subcommand("bench", "Measure");
  app->add_option("--samples", samples, "Timed samples per figure")->check(CLI::Range(1, 1000));
  app->add_option("--logical-gpus", logical, "Logical GPUs")->check(CLI::Range(1, 64));
  app->add_option("--init-timeout", timeout_s, "Seconds cuInit may take")
      ->check(CLI::Range(0.1, 3600.0));
  app->add_option("--json", json, "Write the document to FILE")->type_name("FILE");
  app->add_option("--host-memory", memory, "Host buffers")
      ->check(CLI::IsMember({"pinned", "hugepages"}));
  app->add_option("--gpus", gpus, "GPUs (default: all)")->delimiter(',');
  app->add_flag("--full", full, "Every size");
  return app->help("p2pcheck");
}

TEST(HelpFormatter, PlaceholdersRangesAndDefaultsWithNoTypeWords) {
  const std::string help = help_of_a_sample_command();
  EXPECT_NE(help.find("Usage: p2pcheck bench [OPTIONS]"), std::string::npos) << help;
  EXPECT_NE(help.find("--samples N"), std::string::npos) << help;
  EXPECT_NE(help.find("Timed samples per figure (1 to 1000; default: 20)"), std::string::npos)
      << help;
  EXPECT_NE(help.find("Logical GPUs (1 to 64)\n"), std::string::npos) << help;
  EXPECT_NE(help.find("--init-timeout NUM"), std::string::npos) << help;
  EXPECT_NE(help.find("(0.1 to 3600; default: 45)"), std::string::npos) << help;
  EXPECT_NE(help.find("--json FILE"), std::string::npos) << help;
  EXPECT_NE(help.find("--host-memory pinned|hugepages"), std::string::npos) << help;
  EXPECT_NE(help.find("Host buffers (default: pinned)"), std::string::npos) << help;
  EXPECT_NE(help.find("--gpus N,..."), std::string::npos) << help;
  EXPECT_NE(help.find("GPUs (default: all)\n"), std::string::npos) << help;
  EXPECT_TRUE(std::regex_search(help, std::regex(R"(\n  --full +Every size\n)"))) << help;
  EXPECT_TRUE(std::regex_search(help, std::regex(R"(\n  -h,--help +Print this help)"))) << help;
  for (const char* noise : {"TEXT", "INT", "FLOAT", " in [", ":{", "=20", "=45"}) {
    EXPECT_EQ(help.find(noise), std::string::npos) << noise << " in\n" << help;
  }
}

TEST(HelpFormatter, PositionalsInTheUsageLineAndListDefaultsWithoutBrackets) {
  CLI::App root{"root", "p2pcheck"};
  root.formatter(std::make_shared<HelpFormatter>());
  root.option_defaults()->always_capture_default();
  std::vector<std::string> files, pair;
  std::vector<int> tp = {2, 4, 8};
  CLI::App* merge = root.add_subcommand("merge", "Merge");
  merge->add_option("files", files, "One file per host")->required();
  merge->add_option("--tp", tp, "sizes")->delimiter(',');
  CLI::App* diff = root.add_subcommand("diff", "Two");
  diff->add_option("A B", pair, "The two")->required()->expected(2);
  const std::string m = merge->help("p2pcheck");
  EXPECT_NE(m.find("Usage: p2pcheck merge [OPTIONS] files...\n"), std::string::npos) << m;
  EXPECT_NE(m.find("One file per host (required)\n"), std::string::npos) << m;
  EXPECT_NE(m.find("sizes (default: 2,4,8)\n"), std::string::npos) << m;
  const std::string d = diff->help("p2pcheck");
  EXPECT_NE(d.find("Usage: p2pcheck diff [OPTIONS] A B\n"), std::string::npos) << d;
}

}  // namespace

namespace {

// A long option line continues under its description; a long plain line under its indent plus
// two; an example stays whole; nothing is lost.
TEST(WrapHelp, LongLinesContinueUnderTheirDescriptionAndExamplesStayWhole) {
  const std::string option =
      "  --expect FILE                 Topology every host must match (snapshot or hwloc XML); "
      "default: the topology most hosts have";
  const std::string wrapped = p2p::cli::wrap_help(option, 70);
  std::istringstream rows(wrapped);
  std::string row, words;
  int n = 0;
  for (; std::getline(rows, row); ++n) {
    EXPECT_LE(row.size(), 70u) << row;
    if (n > 0) EXPECT_EQ(row.find_first_not_of(' '), 32u) << "under the description: " << row;
    words += row;
  }
  EXPECT_EQ(n, 3);
  const auto squeezed = [](const std::string& t) {
    std::istringstream in(t);
    std::string w, out;
    while (in >> w) out += w + " ";
    return out;
  };
  EXPECT_EQ(squeezed(words), squeezed(option)) << "no word lost or split";
  const std::string plain = "Merge the JSON lines of many hosts into one fleet verdict: gate, odd";
  EXPECT_EQ(p2p::cli::wrap_help(plain, 40),
            "Merge the JSON lines of many hosts into\n  one fleet verdict: gate, odd");
  const std::string example =
      "  p2pcheck infer --model config.json --expect-gpus 8 --exclusive --junit infer.junit.xml";
  EXPECT_EQ(p2p::cli::wrap_help(example + "\n\nshort", 40), example + "\n\nshort");
  EXPECT_EQ(p2p::cli::wrap_help("a-very-long-word-that-cannot-break here", 10),
            "a-very-long-word-that-cannot-break\n  here");
}

}  // namespace
