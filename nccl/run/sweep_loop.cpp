#include "nccl/run/sweep_loop.hpp"

#include <sstream>
#include <utility>

#include "common/exit_codes.hpp"
#include "nccl/op_spec.hpp"

namespace p2p::nccl {

namespace {

std::string seconds(std::chrono::duration<double> s) {
  std::ostringstream out;
  out << s.count() << " s";
  return out.str();
}

// How long a process waits at the barrier before an operation for the others to arrive: they
// may still be in the previous case, whose three waits (verification, warm-up, timed) each
// have the timeout, or in NCCL's setup; past that they are stuck, not busy.
std::chrono::duration<double> barrier_deadline(const MeasureOptions& o) {
  return 3 * o.timeout + std::chrono::duration<double>(60.0);
}

SweepStop stopped(const std::string& where) {
  return SweepStop{doc::RankEnd::kStopped,
                   "stopped " + where + " because another rank process ended; communicator aborted",
                   kExitRuntime};
}

Measurement measure_with_errors(Clique& clique, RankBuffers& buffers, const PlannedCase& c,
                                const MeasureOptions& o) {
  return measure_or_error(clique, buffers, c.op, c.shape, c.in_place, o, {});
}

}  // namespace

bool cut_short_by_stop(const Measurement& m) {
  return m.status == doc::CollectiveStatus::kHang && stop_requested();
}

SweepLoop::SweepLoop(std::unique_ptr<Clique> clique, std::uint64_t buffer_bytes,
                     BufferAllocator allocator, MeasureOptions options, SweepGroup group,
                     CaseMeasure measure)
    : clique_(std::move(clique)),
      buffers_(allocate_buffers(*clique_, buffer_bytes, allocator)),
      options_(std::move(options)),
      group_(std::move(group)),
      measure_(measure ? std::move(measure) : CaseMeasure(measure_with_errors)) {}

Clique& SweepLoop::clique() {
  if (clique_->aborted() && group_.rebuild) {
    clique_.reset();  // an aborted clique is finished with before the next one starts
    clique_ = group_.rebuild();
  }
  return *clique_;
}

bool SweepLoop::takes_part(const PlannedCase& c) {
  return !clique().local_of(participants(c.op, clique().size())).empty();
}

std::optional<SweepStop> SweepLoop::meet(const std::string& before) {
  if (!group_.meet_others) return std::nullopt;
  try {
    if (barrier(clique(), buffers_, barrier_deadline(options_))) return std::nullopt;
  } catch (const ApiError& e) {
    clique_->abort();
    return SweepStop{doc::RankEnd::kError,
                     "waiting for the other ranks before " + before + ": " + e.what(),
                     kExitRuntime};
  }
  if (stop_requested()) return stopped("before " + before);
  return SweepStop{doc::RankEnd::kHang,
                   "the other ranks did not reach " + before + " within " +
                       seconds(barrier_deadline(options_)) + "; communicator aborted",
                   kExitHang};
}

std::optional<SweepStop> SweepLoop::warm_up(const PlannedCase& c, const std::string& name) {
  bool finished = false;
  try {
    finished = nccl::warm_up(clique(), buffers_, c.op, c.shape, options_);
  } catch (const ApiError& e) {
    clique_->abort();
    return SweepStop{doc::RankEnd::kError, "warm-up of " + name + ": " + e.what(), kExitRuntime};
  }
  if (finished) return std::nullopt;
  if (stop_requested()) return stopped("in the warm-up of " + name);
  return SweepStop{doc::RankEnd::kHang,
                   "no completion within " + seconds(options_.timeout) + " in the warm-up of " +
                       name + "; communicator aborted",
                   kExitHang};
}

Measurement SweepLoop::measure(const PlannedCase& c, const BeforeCase& before) {
  Clique& current = clique();
  if (before) {
    try {
      before(current, c);
    } catch (const ApiError& e) {
      current.abort();
      Measurement m;
      m.status = doc::CollectiveStatus::kError;
      m.detail = e.what();
      return m;
    }
  }
  return measure_(current, buffers_, c, options_);
}

std::optional<SweepStop> SweepLoop::stop_after(const Measurement& m,
                                               const std::string& name) const {
  if (cut_short_by_stop(m)) return stopped("in " + name);
  if (group_.rebuild) return std::nullopt;
  if (m.status == doc::CollectiveStatus::kHang)
    return SweepStop{doc::RankEnd::kHang, name + ": " + m.detail + "; sweep stopped", kExitHang};
  if (m.status == doc::CollectiveStatus::kError)
    return SweepStop{doc::RankEnd::kError, name + ": " + m.detail + "; sweep stopped",
                     kExitRuntime};
  return std::nullopt;
}

}  // namespace p2p::nccl
