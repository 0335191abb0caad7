// The message-size sweep summarised: each route's peak and the smallest size that reaches 90%
// of it (how large a message must be before the link is used well).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "document/bench_document.hpp"

namespace p2p::doc {

struct SweepPoint {
  std::uint64_t bytes = 0;
  double gbps = 0;
};

// Smallest size whose figure reaches `fraction` of the highest figure; nullopt when empty.
std::optional<std::uint64_t> smallest_size_reaching(const std::vector<SweepPoint>& points,
                                                    double fraction);

// One summary per (case, src, dst, part) that has medians at two or more sizes, in the order
// the records first appear. Records that are not "ok" are left out.
std::vector<doc::SweepSummary> summarize_sweeps(const std::vector<doc::BandwidthResult>& records);

}  // namespace p2p::doc
