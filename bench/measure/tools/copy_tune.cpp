// Developer tool, not part of `p2pcheck`: measures copy-engine batch lengths, SM copy kernel
// launch shapes, host memory kinds and pointer-chase spans on one GPU (host<->GPU and within
// the GPU), so the defaults in kernels/copy.hpp, bench/sizes.cpp and bench/measure/measure.hpp can
// be chosen on real hardware.
//   p2p_copy_tune [gpu=0] [size=512M] [bidir]   (bidir: the bidirectional study only)
#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bench/measure/measure.hpp"
#include "bench/measure/no_gpu.hpp"
#include "bench/measure/records.hpp"
#include "bench/sizes.hpp"
#include "bench/stats.hpp"
#include "common/byte_size.hpp"
#include "common/file_io.hpp"

using namespace p2p;
using namespace p2p::bench;

namespace {

struct Figure {
  double median = 0;
  double spread_pct = 0;
};

Figure lane_figure(const Measured& m, std::uint64_t bytes, std::size_t lane) {
  std::vector<double> g;
  for (double s : m.lanes[lane].seconds) g.push_back(gbps(bytes, m.copies_per_sample, s));
  if (m.lanes[lane].bad_words != 0)
    std::printf("  !! %llu bad words\n", static_cast<unsigned long long>(m.lanes[lane].bad_words));
  const SampleStats st = summarize(g);
  return {st.median, st.spread * 100};
}

std::string cell(const Figure& f) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%8.2f±%4.1f%%", f.median, f.spread_pct);
  return buf;
}

// Bidirectional host<->GPU figures only: the SM pair kernel by launch shape, and the copy
// engine pair over fresh allocations, one measurement each, to see whether a low round comes
// with the buffers (where the pinned pages landed) or with the moment.
int bidir_study(int gpu, std::uint64_t bytes) {
  const Endpoint g = Endpoint::on_gpu(gpu), host = Endpoint::host();
  MeasureOptions base;
  base.samples = 5;
  base.warmup_samples = 1;
  std::printf("SM pair kernel (alternate warps, the grid covers the data), %s, each way\n",
              format_bytes(bytes, ByteStyle::kCompact).c_str());
  std::printf("%7s %15s %15s\n", "threads", "bidir h2d", "bidir d2h");
  for (int threads : {256, 512, 1024}) {
    MeasureOptions o = base;
    o.samples = 3;
    o.sm_shape.threads_per_block = threads;
    const Measured bi =
        measure_bandwidth({{host, g, gpu, Method::kSm}, {g, host, gpu, Method::kSm}}, bytes, o);
    std::printf("%7d %15s %15s\n", threads, cell(lane_figure(bi, bytes, 0)).c_str(),
                cell(lane_figure(bi, bytes, 1)).c_str());
    std::fflush(stdout);
  }
  std::printf("\ncopy engine pair, %s, 10 fresh allocations, copies 4 and 16, each way\n",
              format_bytes(bytes, ByteStyle::kCompact).c_str());
  for (int copies : {4, 16}) {
    for (int round = 0; round < 10; ++round) {
      MeasureOptions o = base;
      o.copies_per_batch = copies;
      o.each_lane_under_load = true;
      const Measured bi = measure_bandwidth(
          {{host, g, gpu, Method::kCopyEngine}, {g, host, gpu, Method::kCopyEngine}}, bytes, o);
      std::printf("copies %2d round %d  bidir h2d %s  bidir d2h %s\n", copies, round,
                  cell(lane_figure(bi, bytes, 0)).c_str(), cell(lane_figure(bi, bytes, 1)).c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    require_usable_gpus();
    const int gpu = argc > 1 ? std::stoi(argv[1]) : 0;
    const std::uint64_t bytes = argc > 2 ? parse_size_bytes(argv[2]) : 512 * kMiB;
    const std::string only = argc > 3 ? argv[3] : "";
    const Endpoint g = Endpoint::on_gpu(gpu), host = Endpoint::host();
    if (only == "bidir") return bidir_study(gpu, bytes);
    std::printf(
        "transparent huge pages: %s",
        try_read_text_file("/sys/kernel/mm/transparent_hugepage/enabled").value_or("?\n").c_str());
    MeasureOptions base;
    base.samples = 5;
    base.warmup_samples = 1;

    std::printf("\ncopy engine, %s, median GB/s ± spread, by host memory and copies per sample\n",
                format_bytes(bytes, ByteStyle::kCompact).c_str());
    std::printf("%-10s %6s %15s %15s %15s %15s\n", "memory", "copies", "h2d", "d2h", "bidir h2d",
                "bidir d2h");
    for (HostMemory mem : {HostMemory::kPinned, HostMemory::kHugePages}) {
      for (int copies : {4, 16}) {
        MeasureOptions o = base;
        o.host_memory = mem;
        o.copies_per_batch = copies;
        const auto h2d = lane_figure(
            measure_bandwidth({{host, g, gpu, Method::kCopyEngine}}, bytes, o), bytes, 0);
        const auto d2h = lane_figure(
            measure_bandwidth({{g, host, gpu, Method::kCopyEngine}}, bytes, o), bytes, 0);
        const Measured bi = measure_bandwidth(
            {{host, g, gpu, Method::kCopyEngine}, {g, host, gpu, Method::kCopyEngine}}, bytes, o);
        std::printf("%-10s %6d %15s %15s %15s %15s\n", to_string(mem).c_str(), copies,
                    cell(h2d).c_str(), cell(d2h).c_str(), cell(lane_figure(bi, bytes, 0)).c_str(),
                    cell(lane_figure(bi, bytes, 1)).c_str());
        std::fflush(stdout);
      }
    }
    {
      MeasureOptions o = base;
      o.copies_per_batch = 4;
      const auto local =
          lane_figure(measure_bandwidth({{g, g, gpu, Method::kCopyEngine}}, bytes, o), bytes, 0);
      std::printf("device-local copy engine: %s\n", cell(local).c_str());
    }

    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu);
    std::printf("\nSM copy kernel, %s, pinned memory, by shape (blocks 0 = fill every SM)\n",
                format_bytes(bytes, ByteStyle::kCompact).c_str());
    std::printf("%7s %6s %6s %15s %15s %15s\n", "threads", "unroll", "blocks", "h2d", "d2h",
                "local");
    for (int threads : {256, 512, 1024}) {
      for (int unroll : {4, 8, 16}) {
        for (int blocks : {0, sms}) {
          MeasureOptions o = base;
          o.samples = 3;
          o.sm_shape = kernels::CopyShape{blocks, threads, unroll};
          const auto h2d =
              lane_figure(measure_bandwidth({{host, g, gpu, Method::kSm}}, bytes, o), bytes, 0);
          const auto d2h =
              lane_figure(measure_bandwidth({{g, host, gpu, Method::kSm}}, bytes, o), bytes, 0);
          const auto local =
              lane_figure(measure_bandwidth({{g, g, gpu, Method::kSm}}, bytes, o), bytes, 0);
          std::printf("%7d %6d %6d %15s %15s %15s\n", threads, unroll, blocks, cell(h2d).c_str(),
                      cell(d2h).c_str(), cell(local).c_str());
          std::fflush(stdout);
        }
      }
    }

    std::printf(
        "\nSM copy kernel, default shape, by host memory: h2d, d2h, and both at once (one kernel, alternate "
        "warps)\n");
    for (HostMemory mem : {HostMemory::kPinned, HostMemory::kHugePages}) {
      MeasureOptions o = base;
      o.host_memory = mem;
      const auto h2d =
          lane_figure(measure_bandwidth({{host, g, gpu, Method::kSm}}, bytes, o), bytes, 0);
      const auto d2h =
          lane_figure(measure_bandwidth({{g, host, gpu, Method::kSm}}, bytes, o), bytes, 0);
      const Measured bi =
          measure_bandwidth({{host, g, gpu, Method::kSm}, {g, host, gpu, Method::kSm}}, bytes, o);
      std::printf("%-10s h2d %s  d2h %s  bidir h2d %s  bidir d2h %s\n", to_string(mem).c_str(),
                  cell(h2d).c_str(), cell(d2h).c_str(), cell(lane_figure(bi, bytes, 0)).c_str(),
                  cell(lane_figure(bi, bytes, 1)).c_str());
      std::fflush(stdout);
    }

    std::printf(
        "\nhost latency, ns per dependent load (stride 128 B), by host memory and chain span\n");
    for (HostMemory mem : {HostMemory::kPinned, HostMemory::kHugePages}) {
      for (std::uint64_t span : {256 * kKiB, 1 * kMiB, 16 * kMiB}) {
        MeasureOptions o = base;
        o.samples = 7;
        o.host_memory = mem;
        o.latency_span_bytes = span;
        const Measured m = measure_latency({{g, host, gpu, Method::kPointerChase}}, 0, o);
        const SampleStats st = summarize(m.latency_ns);
        std::printf("%-10s span %7s: %8.1f ns (min %.1f, max %.1f)%s\n", to_string(mem).c_str(),
                    format_bytes(span, ByteStyle::kCompact).c_str(), st.median, st.min, st.max,
                    m.lanes[0].bad_samples ? "  !! chain walk wrong" : "");
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "p2p_copy_tune: %s\n", e.what());
    return 1;
  }
  return 0;
}
