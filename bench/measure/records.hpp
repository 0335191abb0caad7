// Turning measurements into result records: GB/s from bytes and GPU seconds, statistics,
// the link ceiling and achieved %, verification status. Pure functions of data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/measure/cases.hpp"
#include "bench/measure/context.hpp"
#include "bench/measure/measure.hpp"
#include "document/bench_document.hpp"

namespace p2p::bench {

struct Ceiling {
  std::optional<double> gbps;  // per direction
  std::string link;            // "PCIe gen5 x16", "NVLink4 x18"
};

// A GPU's own PCIe link (current speed and width, else the maximum) from the snapshot.
Ceiling gpu_link_ceiling(const BenchContext& ctx, int ordinal);
// What one lane's path could carry: the narrower PCIe link of its two ends, or the NVLinks
// between two GPUs. None within one GPU's memory and for latency.
Ceiling lane_ceiling(const BenchContext& ctx, const Lane& lane);
// Lanes running at once: the sum of their ceilings, but no more than all senders' or all
// receivers' links together (all-to-one is bounded by the one GPU's link).
Ceiling total_ceiling(const BenchContext& ctx, const std::vector<Lane>& lanes);

// The records of one measured (case, route, size): one for a single lane; one per lane
// ("dir") and the total ("sum") when several lanes ran at once.
std::vector<doc::BandwidthResult> bandwidth_records(const Case& c, const Route& route,
                                                    const std::vector<Lane>& lanes,
                                                    std::uint64_t bytes, const Measured& m,
                                                    const BenchContext& ctx);

// The same records without figures: status "waived" or "error" with `detail`.
std::vector<doc::BandwidthResult> unmeasured_bandwidth_records(
    const Case& c, const Route& route, const std::vector<Lane>& lanes, std::uint64_t bytes,
    doc::FigureStatus status, const std::string& detail, const BenchContext& ctx);

doc::LatencyResult latency_record(const Case& c, const Route& route, const Measured& m,
                                  const BenchContext& ctx);
doc::LatencyResult unmeasured_latency_record(const Case& c, const Route& route,
                                             doc::FigureStatus status, const std::string& detail,
                                             const BenchContext& ctx);

// Decimal GB/s of `copies` copies of `bytes` in `seconds`.
double gbps(std::uint64_t bytes, int copies, double seconds);

}  // namespace p2p::bench
