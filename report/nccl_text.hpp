// Text output of `p2pcheck nccl`: an nccl-tests-like table per operation, the transport and
// per-pair matrices, the P2P on/off comparison and the --min-busbw verdicts. Pure functions of
// the result records, so the CPU tests check the layout.
#pragma once

#include <string>
#include <vector>

#include "document/nccl_run.hpp"
#include "document/nccl_section.hpp"

namespace p2p::report {

std::string format_environment(const doc::NcclEnvironment& env);
// What happened to the run (a rank process that died or stopped), one "# note: " line each;
// the failure it explains is stated by the run's verdict.
std::string format_run_warnings(const doc::NcclRun& run);
// One block per (collective, dtype[, pair]); columns as nccl-tests: size, count, type, root,
// then time/algbw/busbw/#wrong out-of-place and in-place. HANG/ERROR/n/a where no number.
std::string format_results_table(const doc::NcclRun& run);
// Which transport NCCL used from each rank (row) to each rank (column), with channel counts.
std::string format_transport_matrix(const doc::NcclRun& run);
// sendrecv_pairs busbw at the largest measured size, first data type, rows = sender.
std::string format_pair_matrix(const doc::NcclRun& run);
// Out-of-place busbw with P2P allowed and with NCCL_P2P_DISABLE=1, size by size.
std::string format_p2p_comparison(const doc::NcclRun& on, const doc::NcclRun& off);
std::string format_verdicts(const std::vector<doc::BusbwVerdict>& verdicts);

}  // namespace p2p::report
