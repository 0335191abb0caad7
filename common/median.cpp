#include "common/median.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace p2p {

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  for (double v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument("median of a value that is not finite");
  }
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace p2p
