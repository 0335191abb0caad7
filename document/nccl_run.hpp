// Result records of `p2pcheck nccl`: one per (collective, type, size, placement[, pair]), the
// environment they were measured in, and the run that holds them. Every record carries
// "schema" and "version"; from_json rejects other versions; a missing number is null.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/nccl_cluster.hpp"
#include "document/outcome.hpp"
#include "document/transport_matrix.hpp"

namespace p2p::doc {

// Ranks beyond which the per-pair tables are listed one line per pair instead of drawn as a
// square: a square over 4096 ranks is 16 million cells, mostly blank.
constexpr int kMaxMatrixRanks = 64;

// How a case's placement is spelt in names, keys and labels: "in_place" | "out_of_place".
std::string placement_word(bool in_place);

struct CollectiveResult {
  static constexpr int kVersion = 1;
  std::string collective;  // to_string(Collective)
  std::string dtype;       // to_string(DataType)
  bool in_place = false;
  int nranks = 0;
  std::optional<int> root;      // broadcast only
  std::optional<int> src_rank;  // sendrecv_pairs only
  std::optional<int> dst_rank;
  std::uint64_t size_bytes = 0;  // nccl-tests' `size` column
  std::uint64_t count = 0;       // nccl-tests' `count` column (elements per NCCL call)
  bool p2p_disabled = false;     // measured with NCCL_P2P_DISABLE=1
  bool cuda_graph = false;
  int warmup_iterations = 0;
  int iterations = 0;
  int timing_samples = 0;  // iterations were timed in this many groups (median group reported)
  CollectiveStatus status = CollectiveStatus::kOk;
  std::string detail;             // why, for wrong/hang/error
  std::optional<double> time_us;  // median time of one operation
  std::optional<double> algbw_gbps;
  std::optional<double> busbw_gbps;
  std::optional<std::uint64_t> wrong_elements;  // summed over ranks; null = not verified
  // Why the figure means nothing on this host (one rank: no data crosses a link); "" when it
  // does. Key "not_meaningful", written only when set.
  std::string not_meaningful;
};

struct DeviceRecord {
  int rank = 0;
  int cuda_device = 0;
  std::string pci_bus_id;
  std::string name;
  std::optional<int> pid;  // the rank's process when ranks are processes; null in one process
  std::string host_id;     // NCCL_HOSTID the rank ran with ("" = NCCL's own)
  std::string hostname;    // the host its process ran on; "" in one-host runs and older documents
};

// How one rank process ended, as the parent saw it (ranks as processes), or as rank 0 of an MPI
// run heard it (`rank` is then the MPI rank).
struct RankProcessEnd {
  int rank = 0;
  int pid = 0;
  RankEnd ended = RankEnd::kDone;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string last_case;  // benchmark name of the last case it completed; "" = none
  std::string detail;
};

struct NcclEnvironment {
  static constexpr int kVersion = 1;
  std::optional<int> nccl_library_version_code;  // ncclGetVersion()
  std::string nccl_library_version;              // "2.28.3"
  std::string nccl_library_path;                 // the libnccl.so.2 actually loaded
  int nccl_header_version_code = 0;              // NCCL_VERSION_CODE of the headers built against
  std::string nccl_header_version;
  std::optional<int> cuda_driver_version;                // cudaDriverGetVersion(), e.g. 13000
  std::optional<int> cuda_runtime_version;               // cudaRuntimeGetVersion()
  std::map<std::string, std::string> nccl_env_user;      // NCCL_* set before p2pcheck started
  std::map<std::string, std::string> nccl_env_p2pcheck;  // NCCL_* p2pcheck set for this run
  std::vector<DeviceRecord> devices;                     // rank order
  std::string hostname;
  std::string buffer_allocator;  // ncclMemAlloc | cudaMalloc; "" in documents older than the field
  bool rank_processes = false;   // one process per rank (false in documents older than the field)
};

struct NcclRun {
  static constexpr int kVersion = 1;
  bool p2p_disabled = false;
  NcclEnvironment environment;
  TransportMatrix transport;
  std::vector<CollectiveResult> results;
  // Ranks as processes: how each ended, and what the run as a whole must say (a rank that
  // died, lines it left cut short). Both empty in one process and in older documents.
  std::vector<RankProcessEnd> rank_process_ends;
  std::vector<std::string> warnings;
  // Across MPI processes: hosts, rank -> host, host transports and the host-pair matrix.
  // Absent in one-host runs and older documents.
  std::optional<NcclCluster> cluster;
};

// Exit-code facts of a run beyond its results: a rank process that hung or was killed for
// making no progress, and one that died (or, under MPI, never sent its results).
bool any_rank_hung(const NcclRun& run);
bool any_rank_died(const NcclRun& run);

void to_json(nlohmann::json& j, const CollectiveResult& r);
void from_json(const nlohmann::json& j, CollectiveResult& r);
void to_json(nlohmann::json& j, const DeviceRecord& d);
void from_json(const nlohmann::json& j, DeviceRecord& d);
void to_json(nlohmann::json& j, const RankProcessEnd& e);
void from_json(const nlohmann::json& j, RankProcessEnd& e);
void to_json(nlohmann::json& j, const NcclEnvironment& e);
void from_json(const nlohmann::json& j, NcclEnvironment& e);
void to_json(nlohmann::json& j, const NcclRun& r);
void from_json(const nlohmann::json& j, NcclRun& r);

// "2.28.3" from NCCL_VERSION_CODE-style integers (22803; 2.8.4 and older used 2804).
std::string format_nccl_version(int code);
// "13.0" from CUDA's 13000.
std::string format_cuda_version(int code);

}  // namespace p2p::doc
