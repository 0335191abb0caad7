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

}  // namespace

int run_rank_sweep(const RunOptions& o, const RankStart& start,
                   const std::vector<PlannedCase>& warm_ups, const std::vector<SweepStep>& steps,
                   const LineSink& out, const RankHooks& hooks) {
  const int me = start.reporter;
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
    out(to_line(RankReadyLine{me, static_cast<int>(::getpid()), buffers.allocator}));

    // Every process before every warm-up and step, taking part or not (see barrier()). 0 when
    // all came; else the end line is written and this is the exit code.
    const auto meet = [&](const std::string& before) {
      try {
        if (barrier(clique, buffers, barrier_deadline(o.measure))) return 0;
      } catch (const ApiError& e) {
        clique.abort();
        out(to_line(RankEndLine{me, doc::RankEnd::kError,
                                "waiting for the other ranks before " + before + ": " + e.what()}));
        return static_cast<int>(kExitRuntime);
      }
      if (stop_requested()) {
        out(to_line(stopped(me, "before " + before)));
        return static_cast<int>(kExitRuntime);
      }
      out(to_line(RankEndLine{me, doc::RankEnd::kHang,
                              "the other ranks did not reach " + before + " within " +
                                  seconds(barrier_deadline(o.measure)) +
                                  "; communicator aborted"}));
      return static_cast<int>(kExitHang);
    };

    for (const PlannedCase& c : warm_ups) {
      if (const int stop = meet("the warm-up of " + benchmark_name(c))) return stop;
      if (clique.local_of(participants(c.op, clique.size())).empty()) continue;
      bool finished = false;
      try {
        finished = warm_up(clique, buffers, c.op, c.shape, o.measure);
      } catch (const ApiError& e) {
        clique.abort();
        out(to_line(RankEndLine{me, doc::RankEnd::kError,
                                "warm-up of " + benchmark_name(c) + ": " + e.what()}));
        return kExitRuntime;
      }
      if (!finished && stop_requested()) {
        out(to_line(stopped(me, "in the warm-up of " + benchmark_name(c))));
        return kExitRuntime;
      }
      if (!finished) {
        out(to_line(RankEndLine{me, doc::RankEnd::kHang,
                                "no completion within " + seconds(o.measure.timeout) +
                                    " in the warm-up of " + benchmark_name(c) +
                                    "; communicator aborted"}));
        return kExitHang;
      }
      out(progress_line(me, "warm-up " + benchmark_name(c)));
    }

    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (hooks.kill_before_step && static_cast<std::size_t>(*hooks.kill_before_step) == i)
        std::raise(SIGKILL);
      const StepCase* mine = my_case(steps[i], clique);
      const std::string step_name =
          steps[i].cases.empty() ? "step " + std::to_string(i) : steps[i].cases.front().name;
      if (const int stop = meet(step_name)) return stop;
      if (mine == nullptr) continue;
      if (hooks.stall_in_step && static_cast<std::size_t>(*hooks.stall_in_step) == i)
        stall(2 * o.measure.timeout);
      const PlannedCase& c = mine->planned;
      Measurement m;
      try {
        m = measure(clique, buffers, c.op, c.shape, c.in_place, o.measure);
      } catch (const ApiError& e) {
        m = Measurement{};
        m.status = doc::CollectiveStatus::kError;
        m.detail = e.what();
        clique.abort();
      }
      if (m.status == doc::CollectiveStatus::kHang &&
          stop_requested()) {  // cut short, not measured: no line for it
        out(to_line(stopped(me, "in " + mine->name)));
        return kExitRuntime;
      }
      RankCaseLine line;
      line.case_name = mine->name;
      line.index = mine->index;
      line.rank = me;
      line.status = m.status;
      line.detail = m.detail;
      line.sample_us = m.sample_us;
      line.wrong_elements = m.wrong_elements;
      out(to_line(line));
      if (m.status == doc::CollectiveStatus::kHang || m.status == doc::CollectiveStatus::kError) {
        // The communicator is aborted and cannot be formed again without the other ranks.
        out(to_line(RankEndLine{
            me,
            m.status == doc::CollectiveStatus::kHang ? doc::RankEnd::kHang : doc::RankEnd::kError,
            line.case_name + ": " + m.detail + "; sweep stopped"}));
        return stop_code(m.status);
      }
    }
    out(to_line(RankEndLine{me, doc::RankEnd::kDone, ""}));
  } catch (const std::exception& e) {
    out(to_line(RankEndLine{me, doc::RankEnd::kError, e.what()}));
    throw;
  }
  return kExitOk;
}

}  // namespace p2p::nccl
