// Loading kernels before anything is timed. With CUDA's lazy module loading (the default since
// CUDA 12.2) a kernel's module is loaded at its first launch, on the host thread, waiting for
// work already running on the device: a first launch inside a timed sample would put that load
// in the figure, and one queued behind a stuck stream would block before any deadline is
// checked. cudaFuncGetAttributes loads the kernel into the current device's context up front.
#pragma once

#include <string>
#include <vector>

namespace p2p::kernels {

struct LoadedKernel {
  std::string name;  // "copy<4>", "fill_pattern", ...
  int max_threads_per_block = 0;
  int registers_per_thread = 0;
};

// Every kernel bench launches (copy in each unroll, copy pair, fill pattern, count mismatches,
// flip words, build chain, pointer chase, latch), loaded on CUDA device `device`; the device
// current before the call is current again after it. Throws ApiError naming the failed call.
std::vector<LoadedKernel> preload_bench_kernels(int device);

// Per file, into the current device's context (preload_bench_kernels calls them all).
void preload_copy_kernels(std::vector<LoadedKernel>& loaded);
void preload_pattern_kernels(std::vector<LoadedKernel>& loaded);
void preload_pointer_chase_kernels(std::vector<LoadedKernel>& loaded);
void preload_latch_kernels(std::vector<LoadedKernel>& loaded);

// Loads one kernel (its address as a host-side symbol) and describes it.
LoadedKernel load_kernel(const char* name, const void* entry);

}  // namespace p2p::kernels
