// What an NCCL run across MPI processes adds to its results: which host every rank ran on,
// the transports between hosts (folded from the per-rank transport matrix) and the host-pair
// matrix (host_pairing.hpp). Records and pure functions of them; the CPU tests build them from
// hand-written inputs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/outcome.hpp"
#include "document/transport_matrix.hpp"

namespace p2p::doc {

// One NCCL rank of a run across processes.
struct ClusterRank {
  int rank = 0;          // NCCL rank
  int process = 0;       // MPI rank of the process that drove it
  int host = 0;          // index into NcclCluster::hosts
  std::string hostname;  // gethostname() of that process
};

// One timed send from the representative rank of one host (its lowest rank) to that of
// another. Every pair of a round ran at the same time as the round's other pairs.
struct HostPairResult {
  int src_host = 0;  // index into NcclCluster::hosts
  int dst_host = 0;
  int src_rank = 0;  // NCCL ranks
  int dst_rank = 0;
  int round = 0;  // 0-based round of the schedule
  std::uint64_t size_bytes = 0;
  CollectiveStatus status = CollectiveStatus::kOk;
  std::string detail;
  std::optional<double> time_us;
  std::optional<double> algbw_gbps;  // = busbw for a send/recv
  std::optional<std::uint64_t> wrong_elements;
};

struct NcclCluster {
  static constexpr int kVersion = 1;
  std::string launch;  // what made it an MPI run: "--mpi" or the launcher variable
                       // ("OMPI_COMM_WORLD_SIZE=4")
  int processes = 0;   // MPI ranks
  // Host keys (NCCL_HOSTID where set, else the host name; rank_layout.hpp), in order of their
  // first rank.
  std::vector<std::string> hosts;
  std::vector<ClusterRank> ranks;  // by NCCL rank
  // [src host][dst host]: every transport NCCL used between a rank of one and a rank of the
  // other (P2P/SHM inside a host, NET/IB or NET/Socket between hosts).
  std::vector<std::vector<TransportCell>> host_transport;
  std::vector<HostPairResult> host_pairs;  // in the order measured
};

// Folds a rank-by-rank matrix into a host-by-host one: the union of the transports of every
// pair of ranks on those hosts, and the most channels any one of those pairs had. `rank_host`
// is per rank; ranks beyond it are ignored.
std::vector<std::vector<TransportCell>> host_transport_matrix(const TransportMatrix& ranks,
                                                              const std::vector<int>& rank_host,
                                                              int hosts);

// Host pairs whose transport includes no NET/ transport: NCCL found a path that does not leave
// the host, which for two real hosts means they are not what the launcher said.
std::vector<std::pair<int, int>> host_pairs_without_network(const NcclCluster& c);

void to_json(nlohmann::json& j, const ClusterRank& r);
void from_json(const nlohmann::json& j, ClusterRank& r);
void to_json(nlohmann::json& j, const HostPairResult& r);
void from_json(const nlohmann::json& j, HostPairResult& r);
void to_json(nlohmann::json& j, const NcclCluster& c);  // schema p2pcheck.nccl_cluster v1
void from_json(const nlohmann::json& j,
               NcclCluster& c);  // InputError for other versions or a ragged matrix

}  // namespace p2p::doc
