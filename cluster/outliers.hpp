// Fleet outliers: per figure (case, GPU pair by position, size) the median over the hosts that
// measured it, and the hosts whose value lies far from it by the modified z-score
// (Iglewicz and Hoaglin): z = 0.6745 (x - median) / MAD, flagged above 3.5. Robust to the very
// outliers it looks for, unlike a mean and standard deviation. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/host_lines.hpp"
#include "document/cluster_document.hpp"

namespace p2p::cluster {

// The rule and what it finds are the cluster document's records (document/cluster_document.hpp).
using OutlierOptions = doc::OutlierRule;
using doc::Deviation;
using doc::FigureSpread;

// Modified z-score with the MAD floored (see OutlierOptions).
double modified_z(double value, double median, double mad, double mad_floor_fraction);

// Every figure some host measured "ok", in the order first seen; hosts identified by name().
std::vector<FigureSpread> fleet_spreads(const std::vector<HostRun>& hosts,
                                        const OutlierOptions& options);

}  // namespace p2p::cluster
