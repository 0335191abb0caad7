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

namespace p2p::cluster {

struct OutlierOptions {
  double z_threshold = 3.5;
  // The MAD is at least this fraction of |median|: hosts with identical figures (MAD 0) would
  // otherwise make any difference infinitely significant. With 0.02, a host is flagged only
  // when it also lies more than about 10% from the median (3.5 * 0.02 / 0.6745).
  double mad_floor_fraction = 0.02;
  // Below this many hosts a median says nothing about which one is odd.
  std::size_t min_hosts = 3;
};

struct Deviation {
  std::string host;
  double value = 0;
  double z = 0;          // signed: negative below the median
  double delta_pct = 0;  // (value - median) / median * 100
  bool worse = false;    // below the fleet for bandwidth, above it for latency
};

struct FigureSpread {
  std::string key;  // Figure::key()
  Figure figure;  // the first host's figure (case, pair, size, kind; its value is not the fleet's)
  std::size_t hosts = 0;  // hosts with an "ok" value
  double median = 0;
  double mad = 0;                   // before the floor
  bool judged = false;              // hosts >= min_hosts
  std::vector<Deviation> outliers;  // |z| > threshold, in host order
};

// Modified z-score with the MAD floored (see OutlierOptions).
double modified_z(double value, double median, double mad, double mad_floor_fraction);

// Every figure some host measured "ok", in the order first seen; hosts identified by name().
std::vector<FigureSpread> fleet_spreads(const std::vector<HostRun>& hosts,
                                        const OutlierOptions& options);

}  // namespace p2p::cluster
