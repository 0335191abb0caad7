#include "nccl/run/rank_sweep.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "common/cuda_check.hpp"
#include "common/exit_codes.hpp"
#include "nccl/benchmark_registration.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/sweep_loop.hpp"

namespace p2p::nccl {

namespace {

// The stall hook (see the header): silent, but ends early when a stop was requested.
void stall(std::chrono::duration<double> how_long) {
  const auto until = std::chrono::steady_clock::now() + how_long;
  while (std::chrono::steady_clock::now() < until && !stop_requested()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The case of `step` this process takes part in, if any.
const StepCase* my_case(const SweepStep& step, SweepLoop& loop) {
  for (const StepCase& c : step.cases) {
    if (loop.takes_part(c.planned)) return &c;
  }
  return nullptr;
}

// The sweep's lines for one process: each warm-up done, each case, and the end. Every method
// returns 0 to go on, or the exit code once the end line is written.
class RankLines {
 public:
  RankLines(SweepLoop& loop, int reporter, const LineSink& out)
      : loop_(loop), me_(reporter), out_(out) {}

  int warm_up(const PlannedCase& c) {
    const std::string name = benchmark_name(c);
    if (auto stop = loop_.meet("the warm-up of " + name)) return end(*stop);
    if (!loop_.takes_part(c)) return 0;
    if (auto stop = loop_.warm_up(c, name)) return end(*stop);
    out_(progress_line(me_, "warm-up " + name));
    return 0;
  }

  int step(const SweepStep& s, std::size_t i, const RankHooks& hooks,
           std::chrono::duration<double> timeout) {
    if (hooks.kill_before_step && static_cast<std::size_t>(*hooks.kill_before_step) == i)
      std::raise(SIGKILL);
    const StepCase* mine = my_case(s, loop_);
    const std::string before = s.cases.empty() ? "step " + std::to_string(i) : s.cases.front().name;
    if (auto stop = loop_.meet(before)) return end(*stop);
    if (mine == nullptr) return 0;
    if (hooks.stall_in_step && static_cast<std::size_t>(*hooks.stall_in_step) == i)
      stall(2 * timeout);
    return measured(*mine, loop_.measure(mine->planned));
  }

  // A case's line (none for one a requested stop cut short), then what it means for the sweep.
  int measured(const StepCase& c, const Measurement& m) {
    if (!cut_short_by_stop(m)) {
      out_(to_line(
          RankCaseLine{c.name, c.index, me_, m.status, m.detail, m.sample_us, m.wrong_elements}));
    }
    if (auto stop = loop_.stop_after(m, c.name)) return end(*stop);
    return 0;
  }

  int end(const SweepStop& stop) {
    out_(to_line(RankEndLine{me_, stop.how, stop.why}));
    return stop.code;
  }

 private:
  SweepLoop& loop_;
  int me_;
  const LineSink& out_;
};

}  // namespace

int run_steps(SweepLoop& loop, int reporter, const std::vector<PlannedCase>& warm_ups,
              const std::vector<SweepStep>& steps, const LineSink& out, const RankHooks& hooks,
              std::chrono::duration<double> timeout) {
  out(to_line(RankReadyLine{reporter, static_cast<int>(::getpid()), loop.buffers().allocator}));
  RankLines lines(loop, reporter, out);
  for (const PlannedCase& c : warm_ups) {
    if (const int stop = lines.warm_up(c)) return stop;
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (const int stop = lines.step(steps[i], i, hooks, timeout)) return stop;
  }
  out(to_line(RankEndLine{reporter, doc::RankEnd::kDone, ""}));
  return kExitOk;
}

int run_rank_sweep(const RunOptions& o, const RankStart& start,
                   const std::vector<PlannedCase>& warm_ups, const std::vector<SweepStep>& steps,
                   const LineSink& out, const RankHooks& hooks) {
  try {
    const NcclApi& api = nccl_api();
    // Current before anything else touches CUDA: the guards inside restore this device, and
    // restoring any other would create a context on a GPU this process does not use.
    P2P_CHECK(cudaSetDevice(start.devices.at(0)));
    std::vector<PlannedCase> all_cases;
    for (const SweepStep& s : steps) {
      for (const StepCase& c : s.cases) all_cases.push_back(c.planned);
    }
    SweepLoop loop(std::make_unique<Clique>(api, start.ranks, start.nranks, start.devices, start.id,
                                            o.measure.timeout),
                   buffer_bytes(all_cases), o.buffers, o.measure, SweepGroup{true, {}});
    return run_steps(loop, start.reporter, warm_ups, steps, out, hooks, o.measure.timeout);
  } catch (const std::exception& e) {
    out(to_line(RankEndLine{start.reporter, doc::RankEnd::kError, e.what()}));
    throw;
  }
}

}  // namespace p2p::nccl
