// `p2pcheck nccl`: NCCL collectives the way nccl-tests measures them, verified, with the
// transport NCCL really used per pair. Options are declared here; the run is
// session/nccl_session.hpp (which answers in one line, exit 3, in a build without NCCL).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "session/nccl_request.hpp"

namespace p2p::cli {

Command add_nccl_command(CLI::App& root);

// The options of a run across the processes of an MPI job (cli/nccl_mpi_command.cpp).
void add_nccl_mpi_options(CLI::App* app, session::NcclRequest& o);

// `p2pcheck nccl-rank --options FILE --rank R`: one rank process of `nccl --rank-processes`,
// started by it with the NCCL unique id on standard input. Hidden from --help.
Command add_nccl_rank_command(CLI::App& root);

}  // namespace p2p::cli
