#include "nccl/run/measure.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "common/cuda_check.hpp"
#include "common/median.hpp"
#include "nccl/run/verify_kernels.hpp"
#include "nccl/sweep.hpp"

namespace p2p::nccl {

namespace {

using cuda::DeviceGuard;

Measurement hang(const char* phase, std::chrono::duration<double> timeout) {
  Measurement m;
  m.status = doc::CollectiveStatus::kHang;
  std::ostringstream why;
  why << "no completion within " << timeout.count() << " s (" << phase
      << "); communicators aborted";
  m.detail = why.str();
  return m;
}

// Runs the operation once on freshly written inputs and counts wrong output elements on the
// GPU of each local rank (the sum over this process's ranks). Returns nullopt when the run missed
// its deadline (clique aborted).
std::optional<std::uint64_t> verification_pass(Clique& clique, RankBuffers& b, const OpSpec& op,
                                               const CollectiveShape& shape,
                                               const std::vector<RankRegions>& regions,
                                               const MeasureOptions& o) {
  const int n = clique.size();
  const std::vector<int> local = clique.local_of(participants(op, n));
  auto* host_wrong = static_cast<unsigned long long*>(b.wrong_host.get());
  for (int r : local) {
    const std::size_t ri = clique.slot(r);
    DeviceGuard on(clique.device(r));
    cudaStream_t s = clique.stream(r);
    // Sentinel first, then the input (which may lie inside the receive buffer, in place).
    fill_sentinel(b.send[ri].get(), op.dtype, shape.send_count, s);
    fill_sentinel(b.recv[ri].get(), op.dtype, shape.recv_count, s);
    fill_input(reinterpret_cast<void*>(regions[ri].input), op.dtype, regions[ri].input_count, r, n,
               s);
    P2P_CHECK(cudaMemsetAsync(b.wrong_counter[ri].get(), 0, sizeof(unsigned long long), s));
  }
  enqueue(clique, op, regions);
  for (int r : local) {
    const std::size_t ri = clique.slot(r);
    DeviceGuard on(clique.device(r));
    cudaStream_t s = clique.stream(r);
    void* out = reinterpret_cast<void*>(regions[ri].output);
    if (r == o.plant_wrong_rank && regions[ri].output_count > 0) fill_sentinel(out, op.dtype, 1, s);
    pattern::Expectation e;
    e.collective = op.collective;
    e.nranks = n;
    e.rank = r;
    e.count = shape.count;
    e.root = op.root;
    e.peer = op.src_rank;
    auto* counter = static_cast<unsigned long long*>(b.wrong_counter[ri].get());
    count_wrong(out, op.dtype, regions[ri].output_count, e, counter, s);
    P2P_CHECK(cudaMemcpyAsync(host_wrong + ri, counter, sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, s));
  }
  if (!clique.wait(o.timeout)) return std::nullopt;
  std::uint64_t wrong = 0;
  for (int r : local) wrong += host_wrong[clique.slot(r)];
  return wrong;
}

struct RankEvents {
  int rank = 0;
  std::vector<cuda::Event> marks;
};

void record(const Clique& clique, std::vector<RankEvents>& events, std::size_t index) {
  for (auto& e : events) {
    DeviceGuard on(clique.device(e.rank));
    P2P_CHECK(cudaEventRecord(e.marks[index].get(), clique.stream(e.rank)));
  }
}

// Seconds between marks i and i+1 on the slowest participating rank, for every i.
std::vector<double> intervals_s(const std::vector<RankEvents>& events, std::size_t marks) {
  std::vector<double> out(marks - 1, 0.0);
  for (const auto& e : events) {
    for (std::size_t i = 0; i + 1 < marks; ++i) {
      float ms = 0.0f;
      P2P_CHECK(cudaEventElapsedTime(&ms, e.marks[i].get(), e.marks[i + 1].get()));
      out[i] = std::max(out[i], static_cast<double>(ms) * 1e-3);
    }
  }
  return out;
}

std::vector<RankEvents> make_events(const Clique& clique, const std::vector<int>& ranks,
                                    std::size_t marks) {
  std::vector<RankEvents> events;
  for (int r : ranks) {
    RankEvents e;
    e.rank = r;
    for (std::size_t i = 0; i < marks; ++i) e.marks.push_back(cuda::make_event(clique.device(r)));
    events.push_back(std::move(e));
  }
  return events;
}

using Graph = std::unique_ptr<CUgraph_st, cuda::OnDevice<CUgraph_st, cudaGraphDestroy>>;
using GraphExec =
    std::unique_ptr<CUgraphExec_st, cuda::OnDevice<CUgraphExec_st, cudaGraphExecDestroy>>;

// Captures `iterations` operations into one graph per participating stream. Capture is ended
// on every stream even when an enqueue throws, so the streams stay usable.
std::vector<GraphExec> capture(const Clique& clique, const std::vector<int>& ranks,
                               const OpSpec& op, const std::vector<RankRegions>& regions,
                               int iterations) {
  for (int r : ranks) {
    DeviceGuard on(clique.device(r));
    P2P_CHECK(cudaStreamBeginCapture(clique.stream(r), cudaStreamCaptureModeThreadLocal));
  }
  std::vector<Graph> graphs;
  auto end_all = [&]() {
    cudaError_t first = cudaSuccess;
    for (int r : ranks) {
      DeviceGuard on(clique.device(r));
      cudaGraph_t g = nullptr;
      const cudaError_t e = cudaStreamEndCapture(clique.stream(r), &g);
      graphs.emplace_back(g, cuda::OnDevice<CUgraph_st, cudaGraphDestroy>{clique.device(r)});
      if (first == cudaSuccess) first = e;
    }
    return first;
  };
  try {
    for (int i = 0; i < iterations; ++i) enqueue(clique, op, regions);
  } catch (...) {
    end_all();
    throw;
  }
  P2P_CHECK(end_all());
  std::vector<GraphExec> execs;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    DeviceGuard on(clique.device(ranks[k]));
    cudaGraphExec_t exec = nullptr;
    P2P_CHECK(cudaGraphInstantiate(&exec, graphs[k].get(), 0));
    execs.emplace_back(
        exec, cuda::OnDevice<CUgraphExec_st, cudaGraphExecDestroy>{clique.device(ranks[k])});
  }
  return execs;
}

void launch_all(const Clique& clique, const std::vector<int>& ranks,
                const std::vector<GraphExec>& execs) {
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    DeviceGuard on(clique.device(ranks[k]));
    P2P_CHECK(cudaGraphLaunch(execs[k].get(), clique.stream(ranks[k])));
  }
}

}  // namespace

std::vector<RankRegions> regions_for(const Clique& clique, const RankBuffers& b, const OpSpec& op,
                                     const CollectiveShape& shape, bool in_place) {
  std::vector<RankRegions> out;  // per local rank, as the buffers
  for (int r : clique.local_ranks()) {
    RegionQuery q;
    q.collective = op.collective;
    q.shape = shape;
    q.element_bytes = element_bytes(op.dtype);
    q.in_place = in_place && supports_in_place(op.collective);
    q.rank = r;
    q.src_rank = op.src_rank;
    q.dst_rank = op.dst_rank;
    const std::size_t k = clique.slot(r);
    out.push_back(rank_regions(q, reinterpret_cast<std::uintptr_t>(b.send[k].get()),
                               reinterpret_cast<std::uintptr_t>(b.recv[k].get())));
  }
  return out;
}

int timing_groups(const MeasureOptions& o) {
  return o.cuda_graph ? std::max(1, o.samples)
                      : static_cast<int>(sample_sizes(o.iterations, o.samples).size());
}

void RankMemoryFree::operator()(void* p) const noexcept {
  if (p == nullptr) return;
  DeviceGuard on(device);
  if (nccl_free != nullptr) {
    nccl_free(p);
  } else {
    cudaFree(p);
  }
}

namespace {

RankMemory nccl_memory(const NcclApi& api, int device, std::uint64_t bytes) {
  DeviceGuard on(device);
  void* p = nullptr;
  if (api.mem_alloc(&p, bytes) != ncclSuccess || p == nullptr)
    return RankMemory(nullptr, {device, api.mem_free});
  return RankMemory(p, {device, api.mem_free});
}

RankMemory cuda_memory(int device, std::uint64_t bytes) {
  DeviceGuard on(device);
  void* p = nullptr;
  P2P_CHECK(cudaMalloc(&p, bytes));
  return RankMemory(p, {device, nullptr});
}

}  // namespace

BufferAllocator parse_buffer_allocator(const std::string& text) {
  if (text == "auto") return BufferAllocator::kAuto;
  if (text == "ncclMemAlloc") return BufferAllocator::kNcclMemAlloc;
  if (text == "cudaMalloc") return BufferAllocator::kCudaMalloc;
  throw InputError("--buffers: `" + text + "` is not auto, ncclMemAlloc or cudaMalloc");
}

RankBuffers allocate_buffers(const Clique& clique, std::uint64_t bytes, BufferAllocator allocator) {
  RankBuffers b;
  b.bytes = bytes;
  // At least one element so every pointer is valid even for an empty plan.
  const std::uint64_t alloc = std::max<std::uint64_t>(bytes, 16);
  const NcclApi& api = clique.api();
  if (allocator == BufferAllocator::kNcclMemAlloc && api.mem_alloc == nullptr) {
    throw NoGpuError("--buffers ncclMemAlloc: " + api.library_path +
                     " has no ncclMemAlloc (NCCL 2.19 or later has)");
  }
  bool nccl_allocated = api.mem_alloc != nullptr && allocator != BufferAllocator::kCudaMalloc;
  for (int r : clique.local_ranks()) {
    if (!nccl_allocated) break;
    RankMemory send = nccl_memory(api, clique.device(r), alloc);
    RankMemory recv = nccl_memory(api, clique.device(r), alloc);
    nccl_allocated = send != nullptr && recv != nullptr;
    b.send.push_back(std::move(send));
    b.recv.push_back(std::move(recv));
  }
  if (!nccl_allocated && allocator == BufferAllocator::kNcclMemAlloc) {
    throw NoGpuError("--buffers ncclMemAlloc: ncclMemAlloc of " + std::to_string(alloc) +
                     " bytes failed (see NCCL's log)");
  }
  if (!nccl_allocated) {  // an old library, no cuMem support (some VMs), or asked for: plain device
                          // memory
    b.send.clear();
    b.recv.clear();
    for (int r : clique.local_ranks()) {
      b.send.push_back(cuda_memory(clique.device(r), alloc));
      b.recv.push_back(cuda_memory(clique.device(r), alloc));
    }
  }
  b.allocator = nccl_allocated ? "ncclMemAlloc" : "cudaMalloc";
  for (int r : clique.local_ranks()) {
    b.wrong_counter.push_back(
        cuda::make_device_buffer(clique.device(r), sizeof(unsigned long long)));
  }
  const std::size_t local = clique.local_ranks().size();
  b.wrong_host = cuda::make_pinned_host(sizeof(unsigned long long) * local);
  std::memset(b.wrong_host.get(), 0, sizeof(unsigned long long) * local);
  return b;
}

bool warm_up(Clique& clique, RankBuffers& buffers, const OpSpec& op, const CollectiveShape& shape,
             const MeasureOptions& o) {
  const std::vector<RankRegions> regions = regions_for(clique, buffers, op, shape, false);
  for (int i = 0; i < std::max(1, o.warmup_iterations); ++i) enqueue(clique, op, regions);
  return clique.wait(o.timeout);
}

bool barrier(Clique& clique, RankBuffers& buffers, std::chrono::duration<double> timeout) {
  OpSpec op;
  op.collective = Collective::kAllReduce;
  op.dtype = DataType::kFloat32;
  op.count = 1;
  CollectiveShape shape = shape_of(op.collective, 16, element_bytes(op.dtype), clique.size());
  shape.count = 1;
  enqueue(clique, op, regions_for(clique, buffers, op, shape, false));
  return clique.wait(timeout);
}

Measurement measure(Clique& clique, RankBuffers& buffers, const OpSpec& op,
                    const CollectiveShape& shape, bool in_place, const MeasureOptions& o) {
  Measurement m;
  const std::vector<RankRegions> regions = regions_for(clique, buffers, op, shape, in_place);
  const std::vector<int> ranks = clique.local_of(participants(op, clique.size()));

  if (o.verify) {
    const auto wrong = verification_pass(clique, buffers, op, shape, regions, o);
    if (!wrong) return hang("verification run", o.timeout);
    m.wrong_elements = *wrong;
    if (*wrong != 0) {
      m.status = doc::CollectiveStatus::kWrong;
      m.detail = std::to_string(*wrong) + " wrong element(s) after one run on fresh inputs";
    }
  }

  for (int i = 0; i < o.warmup_iterations; ++i) enqueue(clique, op, regions);
  if (!clique.wait(o.timeout)) return hang("warm-up", o.timeout);

  std::vector<double> per_op_s;
  if (!o.cuda_graph) {
    // Mark s+1 ends sample s and starts s+1: the operations run back to back throughout.
    const std::vector<int> sizes = sample_sizes(o.iterations, o.samples);
    const std::size_t marks = sizes.size() + 1;
    auto events = make_events(clique, ranks, marks);
    record(clique, events, 0);
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      for (int i = 0; i < sizes[s]; ++i) enqueue(clique, op, regions);
      record(clique, events, s + 1);
    }
    if (!clique.wait(o.timeout)) return hang("timed iterations", o.timeout);
    per_op_s = intervals_s(events, marks);
    for (std::size_t s = 0; s < sizes.size(); ++s) per_op_s[s] /= sizes[s];
  } else {
    const auto execs = capture(clique, ranks, op, regions, o.iterations);
    launch_all(clique, ranks, execs);  // first launch uploads the graph; not timed
    const int launches = std::max(1, o.samples);
    const auto marks = static_cast<std::size_t>(launches) + 1;
    auto events = make_events(clique, ranks, marks);
    record(clique, events, 0);
    for (int l = 0; l < launches; ++l) {
      launch_all(clique, ranks, execs);
      record(clique, events, static_cast<std::size_t>(l) + 1);
    }
    if (!clique.wait(o.timeout)) return hang("timed graph launches", o.timeout);
    per_op_s = intervals_s(events, marks);
    for (double& s : per_op_s) s /= o.iterations;
  }
  for (double sec : per_op_s) m.sample_us.push_back(sec * 1e6);
  m.time_us = median(m.sample_us);
  return m;
}

Measurement measure_or_error(Clique& clique, RankBuffers& buffers, const OpSpec& op,
                             const CollectiveShape& shape, bool in_place,
                             const MeasureOptions& options, const std::function<void()>& before) {
  try {
    if (before) before();
    return measure(clique, buffers, op, shape, in_place, options);
  } catch (const ApiError& e) {
    Measurement m;
    m.status = doc::CollectiveStatus::kError;
    m.detail = e.what();
    clique.abort();
    return m;
  }
}

}  // namespace p2p::nccl
