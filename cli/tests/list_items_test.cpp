#include "cli/list_items.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace {

struct TwoCommands {
  CLI::App root{"test", "p2pcheck"};
  std::vector<int> gpus;
  std::vector<std::string> collectives;
  std::string path;
  TwoCommands() {
    CLI::App* nccl = root.add_subcommand("nccl", "");
    nccl->add_option("--devices,--gpus", gpus, "")->delimiter(',');
    nccl->add_option("-c,--collectives", collectives, "")->delimiter(',');
    nccl->add_option("--json", path, "");  // not a list: commas are its own business
    root.add_subcommand("bench", "");
  }
  std::optional<std::string> check(std::vector<std::string> args) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    root.parse(reversed);
    return p2p::cli::empty_list_item_in(root, args);
  }
};

// CLI11 parses `0,,1` as {0, 1}: the empty item is dropped without a word unless this check
// sees the command line as typed.
TEST(ListItems, CliElevenDropsTheEmptyItemThisCheckRefusesIt) {
  TwoCommands t;
  EXPECT_EQ(t.check({"nccl", "--gpus", "0,,1"}), "nccl: --gpus: an empty item in '0,,1'");
  EXPECT_EQ(t.gpus, (std::vector<int>{0, 1}));
}

TEST(ListItems, EveryPlaceAnEmptyItemCanHide) {
  TwoCommands t1, t2, t3, t4;
  EXPECT_EQ(t1.check({"nccl", "--devices=0,"}), "nccl: --devices: an empty item in '0,'");
  EXPECT_EQ(t2.check({"nccl", "-c", ",all_reduce"}), "nccl: -c: an empty item in ',all_reduce'");
  EXPECT_EQ(t3.check({"nccl", "--gpus=,0"}), "nccl: --gpus: an empty item in ',0'");
  EXPECT_EQ(t4.check({"nccl", "--gpus", "0,1", "--collectives", "a,,b"}),
            "nccl: --collectives: an empty item in 'a,,b'");
}

TEST(ListItems, WholeListsAndOtherOptionsPass) {
  TwoCommands t1, t2, t3;
  EXPECT_EQ(t1.check({"nccl", "--gpus", "0,1", "-c", "all_reduce"}), std::nullopt);
  EXPECT_EQ(t2.check({"nccl", "--json", "a,,b.json"}), std::nullopt);
  EXPECT_EQ(t3.check({"bench"}), std::nullopt);
}

}  // namespace
