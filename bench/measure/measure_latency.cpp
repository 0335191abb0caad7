// The latency half of measure.hpp: one GPU thread walks a pointer chain laid out in the
// memory under test, one node per 128-byte line, round and round a small span (1 MiB by
// default) so that the address translations stay warm and what is timed is the load itself;
// ld.global.cv keeps any cache from answering instead of the memory.
#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/measure.hpp"
#include "common/error.hpp"
#include "kernels/pointer_chase.hpp"

namespace p2p::bench {

Measured measure_latency(const std::vector<Lane>& lanes, std::uint64_t /*bytes*/,
                         const MeasureOptions& opt) {
  if (lanes.size() != 1 || lanes[0].method != Method::kPointerChase) {
    throw std::invalid_argument("latency cases have exactly one pointer-chase lane");
  }
  if (opt.samples < 1 || opt.latency_loads == 0)
    throw std::invalid_argument("latency needs samples and loads");
  const Lane& l = lanes[0];
  const std::uint64_t stride = opt.latency_stride_bytes;
  const std::uint64_t nodes = opt.latency_span_bytes / stride;
  if (nodes < 2) throw std::invalid_argument("latency span holds fewer than two nodes");

  // GPU ids may be logical GPUs: every CUDA call takes the device they live on, and two logical
  // GPUs of one device need no peer mapping.
  const GpuPlacement& place = opt.placement;
  const int issuer = place.device(l.issuer);
  cuda::PeerAccess peer;
  if (l.dst.is_gpu() && place.device(l.dst.gpu) != issuer)
    peer = cuda::PeerAccess(issuer, place.device(l.dst.gpu));
  Buffer chain = Buffer::allocate(l.dst, opt.latency_span_bytes, opt.host_memory,
                                  l.dst.is_gpu() ? place.device(l.dst.gpu) : -1);
  {
    // The owner writes the chain into its own memory; host memory is written by the issuer.
    const int builder = l.dst.is_gpu() ? place.device(l.dst.gpu) : issuer;
    cuda::DeviceGuard on(builder);
    auto build = cuda::make_stream(builder);
    kernels::launch_build_chain(chain.get(), nodes, stride, build.get());
    wait_until_done(build.get(), deadline_after(opt.timeout_s), "pointer chain build");
  }

  cuda::DeviceGuard on(issuer);
  auto stream = cuda::make_stream(issuer);
  auto start = cuda::make_event(issuer);
  auto end = cuda::make_event(issuer);
  auto reached = cuda::make_device_buffer(issuer, sizeof(void*));
  const char* expected =
      static_cast<const char*>(chain.get()) + (opt.latency_loads % nodes) * stride;

  Measured m;
  m.lanes.resize(1);
  m.lanes[0].verified_by = "gpu" + std::to_string(l.issuer);
  m.loads_per_sample = opt.latency_loads;
  m.stride_bytes = stride;
  for (int s = 0; s < opt.warmup_samples + opt.samples; ++s) {
    P2P_CHECK(cudaEventRecord(start.get(), stream.get()));
    kernels::launch_pointer_chase(chain.get(), opt.latency_loads,
                                  static_cast<const void**>(reached.get()), stream.get());
    P2P_CHECK(cudaEventRecord(end.get(), stream.get()));
    wait_until_done(stream.get(), deadline_after(opt.timeout_s),
                    "pointer chase to " + l.dst.label());
    const void* got = nullptr;
    P2P_CHECK(cudaMemcpy(&got, reached.get(), sizeof(got), cudaMemcpyDeviceToHost));
    m.lanes[0].verified_samples += 1;
    if (got != expected) m.lanes[0].bad_samples += 1;
    if (s >= opt.warmup_samples) {
      float ms = 0;
      P2P_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
      m.latency_ns.push_back(static_cast<double>(ms) * 1e6 /
                             static_cast<double>(opt.latency_loads));
    }
  }
  return m;
}

}  // namespace p2p::bench
