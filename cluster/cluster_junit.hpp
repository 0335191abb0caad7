// The fleet's verdict as JUnit cases (report/junit.hpp writes them), one per check of
// fleet_verdict.hpp under the names CI pages have always shown: fleet/gate, fleet/host/<host>
// (a host without a result is an error: it could not be judged), fleet/<kind>/<figure> for each
// figure measured on enough hosts to judge (a host far worse than the median fails it); the
// verdict's headline is a property of the suite.
#pragma once

#include <string>

#include "cluster/merge.hpp"
#include "report/check_cases.hpp"

namespace p2p::cluster {

report::CheckSuite cluster_suite(const ClusterRun& run, const std::string& timestamp);

}  // namespace p2p::cluster
