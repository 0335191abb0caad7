// `p2pcheck nccl transports LOG... [--format json]`: reads NCCL INFO logs of any run. Needs no
// GPU and no NCCL library, so it is registered under `nccl` in every build.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.hpp"

namespace p2p::cli {

Command add_nccl_transports_command(CLI::App& nccl_app);

}  // namespace p2p::cli
