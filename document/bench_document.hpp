// The results schema: one record type per kind of figure, each serialised with its schema name
// and version. Missing numbers are JSON null, never "N/A"; field names carry their units.
// from_json uses j.at() throughout and rejects other schema names and versions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/gpu_sharing.hpp"
#include "document/nccl_section.hpp"
#include "document/outcome.hpp"
#include "document/verdict.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot.hpp"

namespace p2p::doc {

// Where an imported figure came from: the peer tool, its version, the figure's own name there and
// the unit it was printed in (p2pcheck's fields carry their units: a microsecond latency is
// converted to ns, and the unit here says what it was). Absent from figures p2pcheck measured.
struct FigureSource {
  std::string tool;     // nvbandwidth | nccl-tests | p2pBandwidthLatencyTest
  std::string version;  // "v0.8", "2.19.6"; "" where the output does not say
  std::string figure;  // the tool's name for it: "device_to_device_memcpy_read_ce", "Unidirectional
                       // P2P=Enabled ..."
  std::string unit;    // as printed: "GB/s", "ns", "us"
};

// True for a GPU endpoint of a figure ("gpu0"), false for "host" or "all".
inline bool is_gpu_endpoint(const std::string& endpoint) { return endpoint.rfind("gpu", 0) == 0; }

// One bandwidth figure: a (case, source, destination, size) of a single transfer, one direction
// of a concurrent run (part "dir"), or the total of a concurrent run (part "sum").
struct BandwidthResult {
  static constexpr int kVersion = 1;
  static constexpr const char* kSchema = "p2pcheck.bench.bandwidth";
  std::string case_name;
  std::string src;  // "host", "gpu0", "all"
  std::string dst;
  std::string src_pci;  // PCI bus id of a GPU endpoint, "" otherwise
  std::string dst_pci;
  std::string part;         // "" | "dir" | "sum"
  std::string issued_by;    // "gpu1": the GPU whose stream issues the copy; "" for totals
  std::string method;       // "copy_engine" | "sm" | "staged" | "mixed"
  std::uint64_t bytes = 0;  // size of one copy
  int copies_per_sample = 0;
  std::vector<double> samples_gbps;  // decimal GB/s (1e9 B/s), one per timed sample
  std::optional<double> median_gbps;
  std::optional<double> min_gbps;
  std::optional<double> max_gbps;
  std::optional<double> spread_pct;    // (max - min) / median * 100
  std::optional<double> ceiling_gbps;  // what the link could carry in this direction
  std::string ceiling_link;            // "PCIe gen5 x16", "NVLink4 x18", ""
  std::optional<double> achieved_pct;  // median / ceiling * 100
  std::optional<bool> p2p;             // peer access possible between the two GPUs; null for host
  FigureStatus status = FigureStatus::kOk;
  std::string detail;                  // waiver reason, verification failure, error text
  std::uint64_t bad_words = 0;         // 32-bit words that failed verification, all samples
  std::optional<FigureSource> source;  // imported figures only (key "source", absent otherwise)
  // Why the figure means nothing on this host (copies between logical GPUs of one device);
  // "" when it does. Key "not_meaningful", written only when set.
  std::string not_meaningful;
};

// One latency figure: GPU `src` doing dependent loads from memory on `dst`.
struct LatencyResult {
  static constexpr int kVersion = 1;
  static constexpr const char* kSchema = "p2pcheck.bench.latency";
  std::string case_name;
  std::string src;
  std::string dst;
  std::string src_pci;
  std::string dst_pci;
  std::uint64_t loads_per_sample = 0;
  std::uint64_t stride_bytes = 0;
  std::vector<double> samples_ns;
  std::optional<double> median_ns;
  std::optional<double> min_ns;
  std::optional<double> max_ns;
  std::optional<double> spread_pct;
  std::optional<bool> p2p;
  FigureStatus status = FigureStatus::kOk;
  std::string detail;
  std::optional<FigureSource> source;  // imported figures only
  std::string not_meaningful;          // as BandwidthResult's
};

// One file `p2pcheck import` read: which tool wrote it, and how its figures were named here.
struct ImportedFile {
  std::string file;     // as the user named it
  std::string tool;     // nvbandwidth | nccl-tests | p2pBandwidthLatencyTest
  std::string version;  // "" where the output does not say
  std::string format;   // text | json
  int figures = 0;      // figures taken from it
  std::vector<std::string>
      mappings;  // "device_to_device_memcpy_read_ce -> ce_unidir_read", one per name used
  std::vector<std::string> notes;  // what had to be assumed (a default buffer size, ...)
};

// Per (case, src, dst, part) over the size sweep.
struct SweepSummary {
  static constexpr int kVersion = 1;
  static constexpr const char* kSchema = "p2pcheck.bench.sweep";
  std::string case_name;
  std::string src;
  std::string dst;
  std::string part;
  double peak_gbps = 0;
  std::uint64_t peak_bytes = 0;
  std::optional<std::uint64_t> bytes_at_90pct;  // smallest size whose median reaches 90% of peak
};

struct GpuRecord {
  int cuda_ordinal = -1;           // the device the GPU ran on
  std::optional<int> logical_gpu;  // its logical id ("gpuN" in the figures); null: a physical GPU
  std::string pci_bus_id;
  // "GPU-5a3c0f1e-…" as nvidia-smi and dcgm-exporter print it (cudaDeviceProp::uuid); null
  // where unknown (imported runs, documents written before it was recorded).
  std::optional<std::string> uuid;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  std::string link;                 // "PCIe gen5 x16" or ""
  std::optional<double> link_gbps;  // per direction
  int numa_node = -1;
  std::string cpuset;
};

// The gate's verdict as recorded with the results. decision null: the gate was not run.
struct GateRecord {
  std::optional<topo::GateVerdict> decision;  // pass | block; null when the gate did not run
  std::string detail;
  std::optional<topo::GateDecision> reasons;  // the gate's full decision; null when not run
};

// The results document of every measuring subcommand: `p2pcheck bench --json` fills the
// copy figures, `p2pcheck nccl --json` the `nccl` section; both carry the same host, versions,
// topology, gate and GPUs. Version 2 added `written_by` and `nccl`; version 3 `logical_gpus`,
// each GPU's `logical_gpu` and `interrupted`; version 4 `verdict`. Versions 1 to 3 are still
// read (their verdict is null: readers judge them anew, acceptance/judge.hpp).
struct BenchDocument {
  static constexpr int kVersion = 4;
  static constexpr int kOldestReadableVersion = 1;
  static constexpr const char* kSchema = "p2pcheck.bench.run";
  std::string written_by = "bench";  // bench | nccl | import
  std::string tool_version;
  std::string started_utc;  // ISO 8601
  std::string hostname;
  std::string nvidia_driver_version;  // "580.159.04", "" if unknown
  std::string cuda_driver_version;    // "13.0": what the driver supports
  std::string cuda_runtime_version;   // "13.0": what p2pcheck was built with
  std::string environment;            // bare-metal | vm | container | unknown
  std::string topology_source;        // "live", "cuda", a file name
  GateRecord gate;
  bool skip_gate = false;
  // The topology snapshot the run was judged and reported against; null in imports without one.
  std::optional<topo::TopologySnapshot> topology;
  int samples = 0;
  int warmup_samples = 0;
  std::vector<std::uint64_t> sizes_bytes;
  bool full_sweep = true;  // every route at every size; false: one route per kind of path swept
  bool cpu_affinity = true;
  std::string host_memory = "pinned";  // how host buffers were allocated: pinned | hugepages
  // How many logical GPUs the run placed on its devices (bench --logical-gpus); 0 for a run
  // on physical GPUs. A logical run's figures measure the tool, not the host's links.
  int logical_gpus = 0;
  // How the measured GPUs were chosen where not all that CUDA sees were wanted: "--gpus 0,1",
  // "CUDA_VISIBLE_DEVICES=2,3"; "" for every GPU. (Added in version 4; "" before.)
  std::string gpu_selection;
  std::vector<GpuRecord> gpus;
  std::vector<std::vector<bool>> p2p_access;  // [i][j] over `gpus`: cudaDeviceCanAccessPeer
  std::vector<BandwidthResult> bandwidth;
  std::vector<LatencyResult> latency;
  std::vector<SweepSummary> sweeps;
  // `p2pcheck nccl`: the sweep (schema p2pcheck.nccl_report); null in bench's documents.
  std::optional<NcclResultsSection> nccl;
  std::vector<std::string> warnings;
  // What the whole command took (wall seconds, peak resident memory incl. child processes);
  // null when not recorded (documents before version 3).
  std::optional<double> wall_s;
  std::optional<std::uint64_t> peak_rss_bytes;
  // Why the run stopped before its end ("SIGTERM after 12 figures; ..."); "" for a whole run.
  // What was measured before is complete and verified; the rest is absent.
  std::string interrupted;
  // Whether another process or p2pcheck run used the measured GPUs while we measured (see
  // sharing.hpp); null where nobody looked (imports, documents from before the check).
  std::optional<SharingRecord> gpu_sharing;
  // `p2pcheck import`: the files read (key "imported", written only by import; absent elsewhere).
  std::vector<ImportedFile> imported;
  // The run's one verdict: every figure judged, the caveats, the reasons (document/verdict.hpp);
  // null in documents before version 4.
  std::optional<RunVerdict> verdict;
};

// The 16 bytes of a CUDA device UUID (cudaUUID_t) as nvidia-smi prints them:
// "GPU-" then 8-4-4-4-12 lower-case hex digits.
std::string gpu_uuid_text(const unsigned char (&bytes)[16]);

void to_json(nlohmann::json& j, const FigureSource& s);
void from_json(const nlohmann::json& j, FigureSource& s);
void to_json(nlohmann::json& j, const ImportedFile& f);
void from_json(const nlohmann::json& j, ImportedFile& f);
void to_json(nlohmann::json& j, const BandwidthResult& r);
void from_json(const nlohmann::json& j, BandwidthResult& r);
void to_json(nlohmann::json& j, const LatencyResult& r);
void from_json(const nlohmann::json& j, LatencyResult& r);
void to_json(nlohmann::json& j, const SweepSummary& r);
void from_json(const nlohmann::json& j, SweepSummary& r);
void to_json(nlohmann::json& j, const GpuRecord& r);
void from_json(const nlohmann::json& j, GpuRecord& r);
void to_json(nlohmann::json& j, const GateRecord& r);
void from_json(const nlohmann::json& j, GateRecord& r);
void to_json(nlohmann::json& j, const BenchDocument& r);
void from_json(const nlohmann::json& j, BenchDocument& r);

// How the figures of a document ended, bandwidth and latency together.
struct FigureCounts {
  int ok = 0;
  int failed = 0;  // verification failed
  int waived = 0;
  int errors = 0;
};
FigureCounts count_figures(const BenchDocument& doc);

// "gpu3": what the figures call a GPU (its logical id, else its CUDA ordinal).
std::string gpu_label(const GpuRecord& g);
// "run: 41.2 s wall, peak memory 2.21 GB\n" from the document's resources; "" when absent.
std::string describe_resources(const BenchDocument& doc);
// How the measured GPUs were chosen, for `gpu_selection`: "--gpus 0,1" for a requested list,
// "CUDA_VISIBLE_DEVICES=2,3" where the environment narrowed what CUDA shows (null or "" when
// unset), both joined by "; ", "" for every GPU.
std::string gpu_selection_text(const std::vector<int>& requested, const char* cuda_visible_devices);

// The distinct devices a document's GPUs ran on.
int device_count(const BenchDocument& doc);
// "8 logical GPUs on 1 device: figures measure the tool, not the links"; "" for a physical run.
std::string logical_gpus_banner(int logical_gpus, int devices);
// logical_gpus_banner() for a document: "" for a physical run.
std::string logical_gpus_note(const BenchDocument& doc);

// "nvbandwidth v0.8 (nvbw.txt)" per imported file, joined; "" for a document p2pcheck measured.
std::string imported_from(const BenchDocument& doc);

// Reads a document, turning any schema, version or type problem into
// InputError("<source>: <problem>").
BenchDocument bench_document_from_json(const nlohmann::json& j, const std::string& source);

// The one way a results document is read from a file (compare, report, merge, fixtures): parsed,
// `schema` and `version` checked, every problem one line "PATH: <problem>". Unlike the files a
// person writes (common/strict_json.hpp), unknown keys are ignored here: a document written by a
// newer p2pcheck within the same schema version may carry keys this one does not know, and
// refusing them would make that document unreadable for no reason.
BenchDocument read_bench_document_file(const std::string& path);

// The NCCL section of a results document. InputError "<source>: ..." when the document holds
// none (bench wrote it).
const NcclResultsSection& nccl_section_of(const BenchDocument& doc, const std::string& source);

// Reads a results document file and returns its NCCL section; InputError "PATH: ..." for a
// missing or malformed file as well.
NcclResultsSection read_nccl_section(const std::string& path);

}  // namespace p2p::doc
