// Developer tool, not part of `p2pcheck`: measures the SM copy kernel over a grid of launch
// shapes, and copy-engine copies over batch lengths, for host->GPU, GPU->host and within the
// GPU, so the defaults in kernels/copy.hpp and bench/sizes.cpp can be chosen on real hardware.
//   p2p_copy_tune [gpu=0] [size=512M]
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/measure.hpp"
#include "bench/no_gpu.hpp"
#include "bench/records.hpp"
#include "bench/sizes.hpp"
#include "bench/stats.hpp"

using namespace p2p;
using namespace p2p::bench;

namespace {

double median_gbps(const std::vector<Lane>& lanes, std::uint64_t bytes, const MeasureOptions& opt, int lane = 0) {
  const Measured m = measure_bandwidth(lanes, bytes, opt);
  std::vector<double> g;
  for (double s : m.lanes[lane].seconds) g.push_back(gbps(bytes, m.copies_per_sample, s));
  if (m.lanes[lane].bad_words != 0) std::printf("  !! %llu bad words\n", static_cast<unsigned long long>(m.lanes[lane].bad_words));
  return summarize(g).median;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    require_usable_gpus();
    const int gpu = argc > 1 ? std::stoi(argv[1]) : 0;
    const std::uint64_t bytes = argc > 2 ? parse_size_bytes(argv[2]) : 512 * kMiB;
    const Endpoint g = Endpoint::on_gpu(gpu), host = Endpoint::host();
    MeasureOptions opt;
    opt.samples = 3;
    opt.warmup_samples = 1;

    std::printf("copy engine, %s, GB/s by copies per sample\n%8s %9s %9s %9s %9s %9s\n", format_bytes(bytes).c_str(),
                "copies", "h2d", "d2h", "bidir_h2d", "bidir_d2h", "local");
    for (int copies : {4, 8, 16, 32}) {
      opt.copies_per_batch = copies;
      const double h2d = median_gbps({{host, g, gpu, Method::kCopyEngine}}, bytes, opt);
      const double d2h = median_gbps({{g, host, gpu, Method::kCopyEngine}}, bytes, opt);
      const std::vector<Lane> both{{host, g, gpu, Method::kCopyEngine}, {g, host, gpu, Method::kCopyEngine}};
      const double bi0 = median_gbps(both, bytes, opt, 0);
      const double bi1 = median_gbps(both, bytes, opt, 1);
      const double local = median_gbps({{g, g, gpu, Method::kCopyEngine}}, bytes, opt);
      std::printf("%8d %9.2f %9.2f %9.2f %9.2f %9.1f\n", copies, h2d, d2h, bi0, bi1, local);
    }

    opt.copies_per_batch = 0;
    std::printf("\nSM copy kernel, %s, GB/s by shape (blocks 0 = fill every SM)\n%7s %7s %7s %9s %9s %9s\n",
                format_bytes(bytes).c_str(), "threads", "unroll", "blocks", "h2d", "d2h", "local");
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu);
    for (int threads : {256, 512, 1024}) {
      for (int unroll : {2, 4, 8, 16}) {
        for (int blocks : {0, sms, 2 * sms}) {
          opt.sm_shape = kernels::CopyShape{blocks, threads, unroll};
          const double h2d = median_gbps({{host, g, gpu, Method::kSm}}, bytes, opt);
          const double d2h = median_gbps({{g, host, gpu, Method::kSm}}, bytes, opt);
          const double local = median_gbps({{g, g, gpu, Method::kSm}}, bytes, opt);
          std::printf("%7d %7d %7d %9.2f %9.2f %9.1f\n", threads, unroll, blocks, h2d, d2h, local);
          std::fflush(stdout);
        }
      }
    }

    std::printf("\nhost latency, ns per load by stride and span\n");
    for (std::uint64_t stride : {64ull, 128ull, 4096ull}) {
      for (std::uint64_t span : {2 * kMiB, 16 * kMiB, 256 * kMiB}) {
        MeasureOptions lo;
        lo.samples = 5;
        lo.latency_stride_bytes = stride;
        lo.latency_span_bytes = span;
        lo.latency_loads = std::min<std::uint64_t>(50000, span / stride - 1);
        const Measured m = measure_latency({{g, host, gpu, Method::kPointerChase}}, 0, lo);
        std::printf("stride %5llu span %9s loads %6llu: %8.1f ns\n", static_cast<unsigned long long>(stride),
                    format_bytes(span).c_str(), static_cast<unsigned long long>(lo.latency_loads),
                    summarize(m.latency_ns).median);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "p2p_copy_tune: %s\n", e.what());
    return 1;
  }
  return 0;
}
