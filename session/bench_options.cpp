#include "session/bench_options.hpp"

#include "bench/measure/host_memory.hpp"
#include "bench/measure/selection.hpp"
#include "bench/sizes.hpp"

namespace p2p::session {

bench::BenchOptions bench_options_for(const BenchSweepRequest& r) {
  bench::BenchOptions opts;
  if (!r.gpus.empty()) opts.gpus = bench::parse_gpu_list(r.gpus);
  if (!r.sizes.empty()) opts.sizes_bytes = bench::parse_size_list(r.sizes);
  opts.full_sweep = r.full || !r.sizes.empty();
  opts.measure.samples = r.samples;
  opts.measure.warmup_samples = r.warmup_samples;
  opts.measure.copies_per_batch = r.copies;
  opts.cpu_affinity = !r.no_affinity;
  opts.logical_gpus = r.logical_gpus;
  opts.measure.host_memory = *bench::host_memory_from_string(r.host_memory);  // checked by CLI11
  return opts;
}

}  // namespace p2p::session
