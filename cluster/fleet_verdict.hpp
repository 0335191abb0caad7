// The fleet's one verdict (document/verdict.hpp), the last thing `merge` and `cluster` print and
// what their document and JUnit carry: the fleet gate, each host's verdict and each figure
// measured on enough hosts to judge are checks. A host that failed fails with its reasons (its
// chain, its own gate, a topology that differs, figures far worse than the fleet's, a caveat of
// its run that --allow-caveat did not accept); a host that passed with accepted caveats warns,
// and every host's caveats are the fleet verdict's; a host without a result errs, and fails the
// fleet gate too, so the fleet exits 1 either way. Pure.
#pragma once

#include "cluster/merge.hpp"
#include "document/verdict.hpp"

namespace p2p::cluster {

// judged_by `written_by` (merge | cluster); policy names the outlier rule.
doc::RunVerdict fleet_verdict(const ClusterRun& run, const OutlierOptions& rule,
                              const std::string& written_by);

}  // namespace p2p::cluster
