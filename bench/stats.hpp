// Summary statistics of repeated samples: the median is the reported figure (robust to one
// slow sample), min/max and spread show how much to trust it.
#pragma once

#include <cstddef>
#include <vector>

namespace p2p::bench {

struct SampleStats {
  std::size_t count = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double spread = 0;  // (max - min) / median: 0.01 means the samples lie within 1% of the median
};

// Throws std::invalid_argument on an empty list, a non-finite or a negative sample, or a zero
// median with non-zero spread (a spread relative to zero is meaningless).
SampleStats summarize(std::vector<double> samples);

}  // namespace p2p::bench
