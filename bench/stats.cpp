#include "bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/median.hpp"

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

}  // namespace p2p::bench
