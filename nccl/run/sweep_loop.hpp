// The one NCCL sweep, whatever the rank layout: the communicator and its buffers, every
// operation warmed up once at its largest size, then each case measured in turn. Threads that
// hold every rank (runner.cpp), rank processes and MPI ranks (rank_sweep.hpp) and infer's
// capture (infer/rank_main.cpp) all run it; where the ranks live changes two things only, and
// a SweepGroup says them:
//  - whether every process meets the others before each warm-up and case (ranks spread over
//    processes: no rank starts a deadline while a peer is busy with a case it has no part in);
//  - what a hang or a failed call means. A process holding every rank aborts the communicator
//    and forms a fresh one for the next case, so one bad case costs one result. Ranks spread
//    over processes cannot form it again alone: the sweep stops there, and says why.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "document/outcome.hpp"
#include "nccl/plan.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/measure.hpp"

namespace p2p::nccl {

// Why a sweep ends before its last case: the end line's kind and reason, and the exit code.
struct SweepStop {
  doc::RankEnd how = doc::RankEnd::kError;
  std::string why;
  int code = 0;
};

struct SweepGroup {
  bool meet_others = false;  // ranks in other processes too: barrier() before every operation
  // Every rank in this process: what replaces an aborted communicator before the next
  // operation. Empty: the sweep stops at the first hang or failed call.
  std::function<std::unique_ptr<Clique>()> rebuild;
};

// How one case is measured; measure_or_error() unless the sweep times its cases otherwise
// (infer's graphs). Must turn a failed call into a kError measurement and abort the clique.
using CaseMeasure =
    std::function<Measurement(Clique&, RankBuffers&, const PlannedCase&, const MeasureOptions&)>;

// A test's hook, run with the clique before a case is measured (RunOptions::before_case).
using BeforeCase = std::function<void(Clique&, const PlannedCase&)>;

class SweepLoop {
 public:
  // Buffers of `buffer_bytes` per local rank, allocated once: they survive an aborted clique.
  SweepLoop(std::unique_ptr<Clique> clique, std::uint64_t buffer_bytes, BufferAllocator allocator,
            MeasureOptions options, SweepGroup group, CaseMeasure measure = {});

  const RankBuffers& buffers() const { return buffers_; }
  // The communicator the next operation runs on (a fresh one where the group rebuilds).
  Clique& clique();
  bool takes_part(const PlannedCase& c);

  // Meets the other processes (when the group has them) before `before`. A stop when they did
  // not come within the barrier's deadline, a call failed, or a stop was requested.
  std::optional<SweepStop> meet(const std::string& before);

  // The warm-up of `c` (after meet()), where this process takes part. `warmed` is told of each
  // one done. A hang or failed call aborts the clique and is a stop: the end of a sweep whose
  // group cannot rebuild, the end of the warm-ups of one that can.
  std::optional<SweepStop> warm_up(const PlannedCase& c, const std::string& name);

  // One case on the current clique; `before` (may be empty) runs first, inside the same guard.
  Measurement measure(const PlannedCase& c, const BeforeCase& before = {});

  // What `m` of case `name` means for the sweep: nothing where it finished or the group
  // rebuilds; else the stop (a hang or error; "stopped" where a requested stop cut it short).
  std::optional<SweepStop> stop_after(const Measurement& m, const std::string& name) const;

 private:
  std::unique_ptr<Clique> clique_;
  RankBuffers buffers_;
  MeasureOptions options_;
  SweepGroup group_;
  CaseMeasure measure_;
};

// A cut-short measurement that a requested stop ended: neither a result nor a line.
bool cut_short_by_stop(const Measurement& m);

}  // namespace p2p::nccl
