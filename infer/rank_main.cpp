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
nccl::RankCaseLine measure_message(nccl::Clique& clique, nccl::RankBuffers& buffers,
                                   const InferRankJob& job, std::size_t i, int rank,
                                   const nccl::MeasureOptions& warm) {
  const Message& m = job.messages[i];
  const nccl::CollectiveShape shape = shape_of(job, m);
  const nccl::OpSpec op = all_reduce(job, shape);
  nccl::RankCaseLine line;
  line.case_name = message_name(m);
  line.index = static_cast<int>(i);
  line.rank = rank;
  try {
    nccl::MeasureOptions verify = warm;
    verify.warmup_iterations = job.warmup;
    verify.iterations = 1;
    verify.samples = 1;
    const nccl::Measurement checked = nccl::measure(clique, buffers, op, shape, false, verify);
    line.status = checked.status;
    line.detail = checked.detail;
    line.wrong_elements = checked.wrong_elements;
    if (checked.status != doc::CollectiveStatus::kOk) return line;
    const auto times = time_calls_in_graphs(clique, buffers, op, shape, job.calls,
                                            job.calls_per_graph, warm.timeout);
    if (times) {
      line.sample_us = *times;
    } else {
      line.status = doc::CollectiveStatus::kHang;
      line.detail = "no completion within " + std::to_string(job.timeout_s) +
                    " s (timed graphs); communicator aborted";
    }
  } catch (const ApiError& e) {
    clique.abort();
    line.status = doc::CollectiveStatus::kError;
    line.detail = e.what();
  }
  return line;
}

// What NCCL and the driver set up on first use is not timed in the first message: the largest
// message, untimed, first. False when it did not complete within the timeout.
bool warm_up_largest(nccl::Clique& clique, nccl::RankBuffers& buffers, const InferRankJob& job,
                     const nccl::MeasureOptions& warm) {
  const Message& largest =
      *std::max_element(job.messages.begin(), job.messages.end(),
                        [](const Message& a, const Message& b) { return a.bytes < b.bytes; });
  return nccl::warm_up(clique, buffers, all_reduce(job, shape_of(job, largest)),
                       shape_of(job, largest), warm);
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
  const auto end = [&](doc::RankEnd how, const std::string& detail) {
    out.write(nccl::to_line(nccl::RankEndLine{rank, how, detail}));
    return how == doc::RankEnd::kHang ? static_cast<int>(kExitHang)
                                      : static_cast<int>(kExitRuntime);
  };
  try {
    if (job.ipc_check)
      run_ipc_check(rank, n, device, job.work_dir, timeout,
                    [&](const std::string& l) { out.write(l); });

    const nccl::NcclApi& api = nccl::nccl_api();
    P2P_CHECK(cudaSetDevice(device));
    nccl::Clique clique(api, std::vector<int>{rank}, n, std::vector<int>{device}, id, timeout);
    std::uint64_t most = 0;
    for (const Message& m : job.messages) most = std::max(most, shape_of(job, m).size_bytes);
    nccl::RankBuffers buffers = nccl::allocate_buffers(clique, most);
    out.write(
        nccl::to_line(nccl::RankReadyLine{rank, static_cast<int>(::getpid()), buffers.allocator}));

    nccl::MeasureOptions warm;
    warm.warmup_iterations = std::max(1, job.warmup);
    warm.timeout = timeout;
    if (!warm_up_largest(clique, buffers, job, warm)) {
      return end(nccl::stop_requested() ? doc::RankEnd::kStopped : doc::RankEnd::kHang,
                 "no completion within the timeout in the warm-up");
    }
    out.write(nccl::progress_line(rank, "warm-up"));

    for (std::size_t i = 0; i < job.messages.size(); ++i) {
      const nccl::RankCaseLine line = measure_message(clique, buffers, job, i, rank, warm);
      if (line.status == doc::CollectiveStatus::kHang && nccl::stop_requested())
        return end(doc::RankEnd::kStopped, "stopped in " + line.case_name);
      out.write(nccl::to_line(line));
      // A communicator that hung or failed is aborted and cannot be formed again alone.
      if (line.status == doc::CollectiveStatus::kHang)
        return end(doc::RankEnd::kHang, line.case_name + ": " + line.detail);
      if (line.status == doc::CollectiveStatus::kError)
        return end(doc::RankEnd::kError, line.case_name + ": " + line.detail);
    }
    out.write(nccl::to_line(nccl::RankEndLine{rank, doc::RankEnd::kDone, ""}));
  } catch (const std::exception& e) {
    out.write(nccl::to_line(nccl::RankEndLine{rank, doc::RankEnd::kError, e.what()}));
    throw;  // main prints it and exits with the code of its kind
  }
  return kExitOk;
}

}  // namespace p2p::infer
