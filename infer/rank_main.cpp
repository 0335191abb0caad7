#include "infer/rank_main.hpp"

#include <unistd.h>

#include "common/cuda_check.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "infer/graph_timing.hpp"
#include "infer/ipc_check.hpp"
#include "infer/rank_job.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/rank_merge.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/measure.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/rank_spawn.hpp"
#include "nccl/run/rank_sweep.hpp"
#include "nccl/run/sweep_loop.hpp"

namespace p2p::infer {

namespace {

nccl::OpSpec all_reduce(const InferRankJob& job, const nccl::CollectiveShape& shape) {
  nccl::OpSpec op;
  op.collective = nccl::Collective::kAllReduce;
  op.dtype = job.dtype;
  op.count = shape.count;
  return op;
}

nccl::CollectiveShape shape_of(const InferRankJob& job, const Message& m) {
  return nccl::shape_of(nccl::Collective::kAllReduce, m.bytes, nccl::element_bytes(job.dtype),
                        static_cast<int>(job.devices.size()));
}

// One message of the job: a verified call on fresh inputs (after the warm-up calls) before any
// timing, then the calls timed in graphs. A failed call aborts the clique: it is the case's error.
nccl::Measurement measure_message(nccl::Clique& clique, nccl::RankBuffers& buffers,
                                  const InferRankJob& job, const nccl::PlannedCase& c,
                                  const nccl::MeasureOptions& warm) {
  nccl::MeasureOptions verify = warm;
  verify.warmup_iterations = job.warmup;
  verify.iterations = 1;
  verify.samples = 1;
  nccl::Measurement m = nccl::measure_or_error(clique, buffers, c.op, c.shape, false, verify, {});
  if (m.status != doc::CollectiveStatus::kOk) return m;
  m.time_us.reset();
  m.sample_us.clear();
  try {
    const auto times = time_calls_in_graphs(clique, buffers, c.op, c.shape, job.calls,
                                            job.calls_per_graph, warm.timeout);
    if (times) {
      m.sample_us = *times;
    } else {
      m.status = doc::CollectiveStatus::kHang;
      m.detail = "no completion within " + std::to_string(job.timeout_s) +
                 " s (timed graphs); communicator aborted";
    }
  } catch (const ApiError& e) {
    clique.abort();
    m.status = doc::CollectiveStatus::kError;
    m.detail = e.what();
  }
  return m;
}

// The job's messages as the sweep's steps, one each, named as the job names them.
std::vector<nccl::SweepStep> message_steps(const InferRankJob& job) {
  std::vector<nccl::SweepStep> steps;
  for (std::size_t i = 0; i < job.messages.size(); ++i) {
    const nccl::CollectiveShape shape = shape_of(job, job.messages[i]);
    nccl::StepCase c{nccl::PlannedCase{all_reduce(job, shape), shape, false},
                     message_name(job.messages[i]), static_cast<int>(i)};
    steps.push_back(nccl::SweepStep{{c}});
  }
  return steps;
}

// What NCCL and the driver set up on first use is not timed in the first message: the largest
// message, untimed, first (none for a job without messages).
std::vector<nccl::PlannedCase> largest_message(const std::vector<nccl::SweepStep>& steps) {
  const auto largest = std::max_element(
      steps.begin(), steps.end(), [](const nccl::SweepStep& a, const nccl::SweepStep& b) {
        return a.cases.front().planned.shape.size_bytes < b.cases.front().planned.shape.size_bytes;
      });
  if (largest == steps.end()) return {};
  return {largest->cases.front().planned};
}

// NCCL's variables for this rank: its log file, P2P on or off, and its NCCL host where ranks
// share a GPU.
void apply_rank_environment(const InferRankJob& job, int rank) {
  nccl::EnvMap ours =
      nccl::nccl_settings(nccl::rank_nccl_log_path(job.work_dir, rank), job.p2p_disabled);
  if (!job.host_ids[static_cast<std::size_t>(rank)].empty())
    ours["NCCL_HOSTID"] = job.host_ids[static_cast<std::size_t>(rank)];
  nccl::apply_environment(ours);
}

}  // namespace

int run_infer_rank(const std::string& job_path, int rank) {
  const InferRankJob job =
      load_json_file(job_path, [](const nlohmann::json& j) { return j.get<InferRankJob>(); });
  const int n = static_cast<int>(job.devices.size());
  if (rank < 0 || rank >= n)
    throw InputError("infer-rank: --rank " + std::to_string(rank) + " is not a rank of " +
                     std::to_string(n));
  const int device = job.devices[static_cast<std::size_t>(rank)];
  const ncclUniqueId id = nccl::read_unique_id(STDIN_FILENO, "infer-rank");
  const std::chrono::duration<double> timeout(job.timeout_s);

  apply_rank_environment(job, rank);  // before NCCL's first call: it reads them once

  nccl::LineFile out(nccl::rank_results_path(job.work_dir, rank));
  nccl::stop_on_sigterm();
  try {
    if (job.ipc_check)
      run_ipc_check(rank, n, device, job.work_dir, timeout,
                    [&](const std::string& l) { out.write(l); });

    const nccl::NcclApi& api = nccl::nccl_api();
    P2P_CHECK(cudaSetDevice(device));
    nccl::MeasureOptions warm;
    warm.warmup_iterations = std::max(1, job.warmup);
    warm.timeout = timeout;
    const std::vector<nccl::SweepStep> steps = message_steps(job);
    std::vector<nccl::PlannedCase> planned;
    for (const nccl::SweepStep& s : steps) planned.push_back(s.cases.front().planned);
    // Every message has every rank: no meeting before each, and no communicator formed again.
    nccl::SweepLoop loop(std::make_unique<nccl::Clique>(api, std::vector<int>{rank}, n,
                                                        std::vector<int>{device}, id, timeout),
                         nccl::buffer_bytes(planned), nccl::BufferAllocator::kAuto, warm,
                         nccl::SweepGroup{},
                         [&job](nccl::Clique& clique, nccl::RankBuffers& buffers,
                                const nccl::PlannedCase& c, const nccl::MeasureOptions& o) {
                           return measure_message(clique, buffers, job, c, o);
                         });
    return nccl::run_steps(
        loop, rank, largest_message(steps), steps,
        [&out](const std::string& line) { out.write(line); }, {}, timeout);
  } catch (const std::exception& e) {
    out.write(nccl::to_line(nccl::RankEndLine{rank, doc::RankEnd::kError, e.what()}));
    throw;  // main prints it and exits with the code of its kind
  }
}

}  // namespace p2p::infer
