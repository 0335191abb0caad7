// The fleet verdict as JUnit cases (report/junit.hpp writes them): the fleet gate, one case per
// host (a host without a result is an error: it could not be judged), one per figure measured
// on enough hosts to judge (a host far worse than the median fails it).
#pragma once

#include <string>

#include "cluster/merge.hpp"
#include "report/check_cases.hpp"

namespace p2p::cluster {

report::CheckSuite cluster_suite(const ClusterRun& run, const std::string& timestamp);

}  // namespace p2p::cluster
