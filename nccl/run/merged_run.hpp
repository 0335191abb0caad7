// The document of a sweep whose ranks ran in other processes (rank processes, MPI): what the
// ranks' lines merged into (rank_merge.hpp) becomes the run's results, in plan order, with how
// each rank process ended. Built here once for both.
#pragma once

#include <vector>

#include "document/nccl_run.hpp"
#include "nccl/plan.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/measure.hpp"
#include "nccl/run/runner.hpp"

namespace p2p::nccl {

// A merged case as the measurement it stands for.
Measurement measurement_of(const MergedCase& m);

// The result of merged case `m` (one of `plan`, by its index).
doc::CollectiveResult merged_result(const RunOptions& o, const std::vector<PlannedCase>& plan,
                                    int nranks, const MergedCase& m);

// Adds to `run` the results of `merged`'s cases that are in `plan` (MPI's host-pair rounds,
// numbered after it, belong to the cluster section), its rank ends and warnings, and marks the
// environment as one of rank processes with the buffers they reported.
void add_merged_ranks(doc::NcclRun& run, const RunOptions& o, const std::vector<PlannedCase>& plan,
                      int nranks, const MergedRun& merged);

}  // namespace p2p::nccl
