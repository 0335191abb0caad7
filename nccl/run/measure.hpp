// Measures one operation at one size on a clique: a verification pass against the pattern
// (every rank's output, exact), a warm-up, then timed samples with CUDA events on every
// participating stream; the time of a sample is the slowest rank's, and the reported time per
// operation is the median sample's. Every wait has a deadline; a missed deadline aborts the
// clique and the result is "hang".
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/cuda_resources.hpp"
#include "document/outcome.hpp"
#include "nccl/collective.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/launch.hpp"

namespace p2p::nccl {

// One rank's device memory, freed on its device by whichever allocator made it.
struct RankMemoryFree {
  int device = -1;
  ncclResult_t (*nccl_free)(void*) = nullptr;  // null: cudaFree
  void operator()(void* p) const noexcept;
};
using RankMemory = std::unique_ptr<void, RankMemoryFree>;

// Send and receive buffers of the same size for each local rank of a clique (indexed by
// Clique::slot), reused by every operation and size.
// They come from ncclMemAlloc where the library has it (NCCL 2.19+), as nccl-tests allocates
// them: cuMem-backed memory, on which NCCL's own zero-copy paths apply, so the two tools time
// NCCL on the same kind of memory; else, or if it fails, from cudaMalloc. Neither belongs to
// a communicator, so the buffers survive an aborted one.
struct RankBuffers {
  std::uint64_t bytes = 0;
  std::string allocator;  // "ncclMemAlloc" | "cudaMalloc"
  std::vector<RankMemory> send;
  std::vector<RankMemory> recv;
  std::vector<cuda::DevicePtr> wrong_counter;  // one unsigned long long per local rank
  cuda::PinnedHostPtr wrong_host;              // their copies, one per rank
};

enum class BufferAllocator { kAuto, kNcclMemAlloc, kCudaMalloc };

// kAuto: ncclMemAlloc where the library has it and it succeeds, else cudaMalloc.
// kNcclMemAlloc: NoGpuError naming the cause when NCCL cannot allocate.
RankBuffers allocate_buffers(const Clique& clique, std::uint64_t bytes,
                             BufferAllocator allocator = BufferAllocator::kAuto);

// "auto" | "ncclMemAlloc" | "cudaMalloc"; InputError("--buffers: ...") otherwise.
BufferAllocator parse_buffer_allocator(const std::string& text);

struct MeasureOptions {
  int warmup_iterations = 5;
  int iterations = 20;  // timed operations, as nccl-tests' -n
  // The timed operations run back to back in `samples` groups with CUDA events only between
  // groups; the time is the median group's time per operation. An event between every two
  // operations costs the GPU about half a microsecond each (1% at 64 MiB on an H200), so
  // samples == iterations (a median over single operations) is possible but not the default.
  int samples = 5;
  bool cuda_graph =
      false;  // capture the timed iterations into one graph per stream, launched `samples` times
  bool verify = true;
  std::chrono::duration<double> timeout{30.0};
  // Test hook: after the verification run, overwrite one output element of this rank so the
  // check must report it. -1 = off. Nothing outside the GPU tests sets it.
  int plant_wrong_rank = -1;
};

struct Measurement {
  doc::CollectiveStatus status = doc::CollectiveStatus::kOk;  // ok | wrong | hang
  std::string detail;
  std::optional<double> time_us;  // the median of sample_us
  std::vector<double> sample_us;  // time per operation of every timed group
  std::optional<std::uint64_t> wrong_elements;
};

// How many timed groups one measurement has: the samples of --iters, or the graph launches.
int timing_groups(const MeasureOptions& options);

// Untimed, unverified: `options.warmup_iterations` operations at this shape, then a wait.
// Run once per operation at its largest size before a sweep, as nccl-tests does, so that what
// NCCL and the driver set up on first use is not timed in the first size. False on a hang
// (the clique is aborted).
bool warm_up(Clique& clique, RankBuffers& buffers, const OpSpec& op, const CollectiveShape& shape,
             const MeasureOptions& options);

// Every rank of the communicator meets here: one float all_reduce on the local ranks' buffers
// (contents are rewritten by the next verification pass), then a wait. Rank processes use it
// before each case so that a rank never starts its deadline while a peer is still busy with a
// case it has no part in (a send/recv pair elsewhere). False on a hang (the clique is aborted).
bool barrier(Clique& clique, RankBuffers& buffers, std::chrono::duration<double> timeout);

// Where each local rank's arguments point in `buffers` for `op` at `shape` (indexed by
// Clique::slot): what enqueue() takes.
std::vector<RankRegions> regions_for(const Clique& clique, const RankBuffers& buffers,
                                     const OpSpec& op, const CollectiveShape& shape, bool in_place);

// Throws ApiError for a failed CUDA/NCCL call (the caller records it and aborts the clique).
Measurement measure(Clique& clique, RankBuffers& buffers, const OpSpec& op,
                    const CollectiveShape& shape, bool in_place, const MeasureOptions& options);

// measure(), where one failed call must not end the sweep: it is the case's error (status error,
// the call's message as detail) and the clique, whose state is then unknown, is aborted. `before`
// runs first inside the same guard (a test's hook); it may be empty.
Measurement measure_or_error(Clique& clique, RankBuffers& buffers, const OpSpec& op,
                             const CollectiveShape& shape, bool in_place,
                             const MeasureOptions& options, const std::function<void()>& before);

}  // namespace p2p::nccl
