#include "nccl/run/rank_sweep.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <sstream>
#include <thread>

#include "common/cuda_check.hpp"
#include "common/exit_codes.hpp"
#include "nccl/benchmark_registration.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/measure.hpp"

namespace p2p::nccl {

namespace {

int stop_code(doc::CollectiveStatus status) {
  return status == doc::CollectiveStatus::kHang ? kExitHang : kExitRuntime;
}

// The stall hook (see the header): silent, but ends early when a stop was requested.
void stall(std::chrono::duration<double> how_long) {
  const auto until = std::chrono::steady_clock::now() + how_long;
  while (std::chrono::steady_clock::now() < until && !stop_requested()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

RankEndLine stopped(int reporter, const std::string& where) {
  return RankEndLine{
      reporter, doc::RankEnd::kStopped,
      "stopped " + where + " because another rank process ended; communicator aborted"};
}

// How long a rank waits at the barrier before a step for the others to arrive: they may still
// be in the previous step, whose three waits (verification, warm-up, timed) each have the
// timeout, or in NCCL's setup; past that they are stuck, not busy.
std::chrono::duration<double> barrier_deadline(const MeasureOptions& o) {
  return 3 * o.timeout + std::chrono::duration<double>(60.0);
}

std::string seconds(std::chrono::duration<double> s) {
  std::ostringstream out;
  out << s.count() << " s";
  return out.str();
}

// The case of `step` this process takes part in, if any.
const StepCase* my_case(const SweepStep& step, const Clique& clique) {
  for (const StepCase& c : step.cases) {
    if (!clique.local_of(participants(c.planned.op, clique.size())).empty()) return &c;
  }
  return nullptr;
}

// One process's ranks in the communicator, through the sweep; every method returns 0 to go on,
// or the exit code once its end line is written.
class RankLoop {
 public:
  RankLoop(const RunOptions& o, const RankStart& start, Clique& clique, RankBuffers& buffers,
           const LineSink& out)
      : o_(o), me_(start.reporter), clique_(clique), buffers_(buffers), out_(out) {}

  // Every process before every warm-up and step, taking part or not (see barrier()).
  int meet(const std::string& before) {
    try {
      if (barrier(clique_, buffers_, barrier_deadline(o_.measure))) return 0;
    } catch (const ApiError& e) {
      clique_.abort();
      return end(doc::RankEnd::kError,
                 "waiting for the other ranks before " + before + ": " + e.what(), kExitRuntime);
    }
    if (stop_requested()) return stopped_at("before " + before);
    return end(doc::RankEnd::kHang,
               "the other ranks did not reach " + before + " within " +
                   seconds(barrier_deadline(o_.measure)) + "; communicator aborted",
               kExitHang);
  }

  int warm_up_case(const PlannedCase& c) {
    if (const int stop = meet("the warm-up of " + benchmark_name(c))) return stop;
    if (clique_.local_of(participants(c.op, clique_.size())).empty()) return 0;
    bool finished = false;
    try {
      finished = warm_up(clique_, buffers_, c.op, c.shape, o_.measure);
    } catch (const ApiError& e) {
      clique_.abort();
      return end(doc::RankEnd::kError, "warm-up of " + benchmark_name(c) + ": " + e.what(),
                 kExitRuntime);
    }
    if (!finished && stop_requested()) return stopped_at("in the warm-up of " + benchmark_name(c));
    if (!finished) {
      return end(doc::RankEnd::kHang,
                 "no completion within " + seconds(o_.measure.timeout) + " in the warm-up of " +
                     benchmark_name(c) + "; communicator aborted",
                 kExitHang);
    }
    out_(progress_line(me_, "warm-up " + benchmark_name(c)));
    return 0;
  }

  int step(const SweepStep& s, std::size_t i, const RankHooks& hooks) {
    if (hooks.kill_before_step && static_cast<std::size_t>(*hooks.kill_before_step) == i)
      std::raise(SIGKILL);
    const StepCase* mine = my_case(s, clique_);
    if (const int stop = meet(s.cases.empty() ? "step " + std::to_string(i) : s.cases.front().name))
      return stop;
    if (mine == nullptr) return 0;
    if (hooks.stall_in_step && static_cast<std::size_t>(*hooks.stall_in_step) == i)
      stall(2 * o_.measure.timeout);
    const PlannedCase& c = mine->planned;
    const Measurement m =
        measure_or_error(clique_, buffers_, c.op, c.shape, c.in_place, o_.measure, {});
    // Cut short, not measured: no line for it.
    if (m.status == doc::CollectiveStatus::kHang && stop_requested())
      return stopped_at("in " + mine->name);
    out_(to_line(RankCaseLine{mine->name, mine->index, me_, m.status, m.detail, m.sample_us,
                              m.wrong_elements}));
    if (m.status != doc::CollectiveStatus::kHang && m.status != doc::CollectiveStatus::kError)
      return 0;
    // The communicator is aborted and cannot be formed again without the other ranks.
    return end(
        m.status == doc::CollectiveStatus::kHang ? doc::RankEnd::kHang : doc::RankEnd::kError,
        mine->name + ": " + m.detail + "; sweep stopped", stop_code(m.status));
  }

 private:
  int end(doc::RankEnd how, const std::string& why, int code) {
    out_(to_line(RankEndLine{me_, how, why}));
    return code;
  }
  int stopped_at(const std::string& where) {
    out_(to_line(stopped(me_, where)));
    return kExitRuntime;
  }

  const RunOptions& o_;
  int me_;
  Clique& clique_;
  RankBuffers& buffers_;
  const LineSink& out_;
};

}  // namespace

int run_rank_sweep(const RunOptions& o, const RankStart& start,
                   const std::vector<PlannedCase>& warm_ups, const std::vector<SweepStep>& steps,
                   const LineSink& out, const RankHooks& hooks) {
  try {
    const NcclApi& api = nccl_api();
    // Current before anything else touches CUDA: the guards inside restore this device, and
    // restoring any other would create a context on a GPU this process does not use.
    P2P_CHECK(cudaSetDevice(start.devices.at(0)));
    Clique clique(api, start.ranks, start.nranks, start.devices, start.id, o.measure.timeout);
    std::vector<PlannedCase> all_cases;
    for (const SweepStep& s : steps) {
      for (const StepCase& c : s.cases) all_cases.push_back(c.planned);
    }
    RankBuffers buffers = allocate_buffers(clique, buffer_bytes(all_cases), o.buffers);
    out(to_line(RankReadyLine{start.reporter, static_cast<int>(::getpid()), buffers.allocator}));
    RankLoop loop(o, start, clique, buffers, out);
    for (const PlannedCase& c : warm_ups) {
      if (const int stop = loop.warm_up_case(c)) return stop;
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (const int stop = loop.step(steps[i], i, hooks)) return stop;
    }
    out(to_line(RankEndLine{start.reporter, doc::RankEnd::kDone, ""}));
  } catch (const std::exception& e) {
    out(to_line(RankEndLine{start.reporter, doc::RankEnd::kError, e.what()}));
    throw;
  }
  return kExitOk;
}

}  // namespace p2p::nccl
