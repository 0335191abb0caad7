// The median: the figure every measurement in p2pcheck reports, as it is robust to one slow
// sample. The one definition, for bench, nccl and the cluster's outlier test.
#pragma once

#include <vector>

namespace p2p {

// The middle value (the mean of the two middle ones for an even count) of finite values.
// std::invalid_argument on an empty list or a value that is not finite: a median of nothing
// has no meaning, so a caller that can have no values says what it shows instead.
double median(std::vector<double> values);

}  // namespace p2p
