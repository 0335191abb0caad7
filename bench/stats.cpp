#include "bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace p2p::bench {

SampleStats summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("statistics of no samples");
  for (double s : samples) {
    if (!std::isfinite(s) || s < 0) throw std::invalid_argument("sample is negative or not finite");
  }
  std::sort(samples.begin(), samples.end());
  SampleStats st;
  st.count = samples.size();
  st.min = samples.front();
  st.max = samples.back();
  st.median = median(samples);
  if (st.median > 0) {
    st.spread = (st.max - st.min) / st.median;
  } else if (st.max > st.min) {
    throw std::invalid_argument("spread relative to a zero median");
  }
  return st;
}

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  for (double v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument("median of a value that is not finite");
  }
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace p2p::bench
