#include "infer/graph_timing.hpp"

#include <algorithm>
#include <memory>

#include "common/cuda_check.hpp"
#include "common/cuda_resources.hpp"
#include "infer/rank_job.hpp"
#include "nccl/run/launch.hpp"

namespace p2p::infer {

namespace {

using cuda::DeviceGuard;
using Graph = std::unique_ptr<CUgraph_st, cuda::OnDevice<CUgraph_st, cudaGraphDestroy>>;
using GraphExec =
    std::unique_ptr<CUgraphExec_st, cuda::OnDevice<CUgraphExec_st, cudaGraphExecDestroy>>;

struct RankMarks {
  int rank = 0;
  std::vector<cuda::Event> marks;  // per_graph + 1
};

void mark(const nccl::Clique& clique, std::vector<RankMarks>& ranks, std::size_t i) {
  for (RankMarks& r : ranks) {
    DeviceGuard on(clique.device(r.rank));
    // External: recorded by the graph each time it runs, so its timestamp can be read afterwards.
    P2P_CHECK(
        cudaEventRecordWithFlags(r.marks[i].get(), clique.stream(r.rank), cudaEventRecordExternal));
  }
}

// One graph per local rank of `calls` calls with marks around each. Capture is ended on every
// stream even when a call inside it throws, so the streams stay usable.
std::vector<GraphExec> capture(const nccl::Clique& clique, std::vector<RankMarks>& ranks,
                               const nccl::OpSpec& op,
                               const std::vector<nccl::RankRegions>& regions, int calls) {
  for (const RankMarks& r : ranks) {
    DeviceGuard on(clique.device(r.rank));
    P2P_CHECK(cudaStreamBeginCapture(clique.stream(r.rank), cudaStreamCaptureModeThreadLocal));
  }
  std::vector<Graph> graphs;
  auto end_all = [&]() {
    cudaError_t first = cudaSuccess;
    for (const RankMarks& r : ranks) {
      DeviceGuard on(clique.device(r.rank));
      cudaGraph_t g = nullptr;
      const cudaError_t e = cudaStreamEndCapture(clique.stream(r.rank), &g);
      graphs.emplace_back(g, cuda::OnDevice<CUgraph_st, cudaGraphDestroy>{clique.device(r.rank)});
      if (first == cudaSuccess) first = e;
    }
    return first;
  };
  try {
    mark(clique, ranks, 0);
    for (int i = 0; i < calls; ++i) {
      nccl::enqueue(clique, op, regions);
      mark(clique, ranks, static_cast<std::size_t>(i) + 1);
    }
  } catch (...) {
    end_all();
    throw;
  }
  P2P_CHECK(end_all());
  std::vector<GraphExec> execs;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    DeviceGuard on(clique.device(ranks[k].rank));
    cudaGraphExec_t exec = nullptr;
    P2P_CHECK(cudaGraphInstantiate(&exec, graphs[k].get(), 0));
    execs.emplace_back(
        exec, cuda::OnDevice<CUgraphExec_st, cudaGraphExecDestroy>{clique.device(ranks[k].rank)});
    // Uploaded before launch, so the first launch does not carry the upload.
    P2P_CHECK(cudaGraphUpload(exec, clique.stream(ranks[k].rank)));
  }
  return execs;
}

}  // namespace

std::optional<std::vector<double>> time_calls_in_graphs(nccl::Clique& clique,
                                                        nccl::RankBuffers& buffers,
                                                        const nccl::OpSpec& op,
                                                        const nccl::CollectiveShape& shape,
                                                        int calls, int per_graph,
                                                        std::chrono::duration<double> timeout) {
  const std::vector<nccl::RankRegions> regions =
      nccl::regions_for(clique, buffers, op, shape, false);
  const std::vector<int> sizes = graph_sizes(calls, per_graph);
  const std::size_t most = static_cast<std::size_t>(*std::max_element(sizes.begin(), sizes.end()));
  std::vector<RankMarks> ranks;
  for (int r : clique.local_ranks()) {
    RankMarks m;
    m.rank = r;
    for (std::size_t i = 0; i <= most; ++i) m.marks.push_back(cuda::make_event(clique.device(r)));
    ranks.push_back(std::move(m));
  }
  std::vector<double> out;
  for (int size : sizes) {
    const std::vector<GraphExec> execs = capture(clique, ranks, op, regions, size);
    if (!clique.wait(timeout)) return std::nullopt;  // the uploads
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      DeviceGuard on(clique.device(ranks[k].rank));
      P2P_CHECK(cudaGraphLaunch(execs[k].get(), clique.stream(ranks[k].rank)));
    }
    if (!clique.wait(timeout)) return std::nullopt;
    for (int i = 0; i < size; ++i) {
      double slowest_ms = 0.0;
      for (const RankMarks& r : ranks) {
        float ms = 0.0f;
        P2P_CHECK(cudaEventElapsedTime(&ms, r.marks[static_cast<std::size_t>(i)].get(),
                                       r.marks[static_cast<std::size_t>(i) + 1].get()));
        slowest_ms = std::max(slowest_ms, static_cast<double>(ms));
      }
      out.push_back(slowest_ms * 1e3);
    }
  }
  return out;
}

}  // namespace p2p::infer
