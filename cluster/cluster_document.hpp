// The cluster document (schema p2pcheck.cluster.run, version 1; results/README.md describes
// every field): the fleet verdict, one entry per host, one per figure with its fleet median and
// outliers, and an `nccl` section that stays null until the multi-host NCCL runs fill it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cluster/merge.hpp"

namespace p2p::cluster {

struct DocumentInfo {
  std::string written_by;  // merge | cluster
  std::string tool_version;
  std::string created_utc;
  int ranks = 0;  // MPI ranks of a `cluster` run; 0 for merge
};

nlohmann::json cluster_document(const ClusterRun& run, const OutlierOptions& rule,
                                const DocumentInfo& info);

}  // namespace p2p::cluster
