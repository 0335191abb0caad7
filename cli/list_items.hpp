// Comma lists with an empty item (`--gpus 0,,1`, `--tp 4,`): CLI11 splits a delimited option's
// value and silently drops its empty items, so `0,,1` would mean `0,1`. This check runs on the
// parsed command line and refuses them, whatever the option.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace p2p::cli {

// The first value of a comma-delimited option of a parsed command in `args` (argv after the
// program name) that holds an empty item, as a line for "p2pcheck: error: ...":
//   nccl: --gpus: an empty item in '0,,1'
// nullopt when there is none. An empty value as a whole is left to the option's own check.
std::optional<std::string> empty_list_item_in(const CLI::App& root,
                                              const std::vector<std::string>& args);

}  // namespace p2p::cli
