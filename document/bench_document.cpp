#include "document/bench_document.hpp"

#include <cstdio>
#include <set>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"
#include "common/strict_json.hpp"
#include "document/json_limits.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

void write_header(json& j, const char* schema, int version) {
  write_schema_header(j, schema, version);
}
void check_header(const json& j, const char* schema, int version) {
  require_schema(j, schema, version);
}

}  // namespace

std::string imported_from(const BenchDocument& doc) {
  std::string out;
  for (const auto& f : doc.imported)
    out += (out.empty() ? "" : "; ") + f.tool + (f.version.empty() ? "" : " " + f.version) + " (" +
           f.file + ")";
  return out;
}

std::string gpu_uuid_text(const unsigned char (&bytes)[16]) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0xF];
  }
  return out;
}

void to_json(json& j, const GpuRecord& r) {
  j = json{{"cuda_ordinal", r.cuda_ordinal},
           {"logical_gpu", optional_json(r.logical_gpu)},
           {"pci_bus_id", r.pci_bus_id},
           {"uuid", optional_json(r.uuid)},
           {"name", r.name},
           {"compute_capability", std::to_string(r.cc_major) + "." + std::to_string(r.cc_minor)},
           {"cc_major", r.cc_major},
           {"cc_minor", r.cc_minor},
           {"sm_count", r.sm_count},
           {"memory_bytes", r.memory_bytes},
           {"link", r.link},
           {"link_gbps", optional_json(r.link_gbps)},
           {"numa_node", r.numa_node},
           {"cpuset", r.cpuset}};
}

void from_json(const json& j, GpuRecord& r) {
  r.cuda_ordinal = integer_at(j, "cuda_ordinal", -1, kMaxGpus);
  // Absent before version 3 (every GPU physical).
  r.logical_gpu =
      j.contains("logical_gpu") ? optional_integer_at(j, "logical_gpu", 0, kMaxGpus) : std::nullopt;
  r.pci_bus_id = j.at("pci_bus_id").get<std::string>();
  // Added within version 3: absent in older documents and imports.
  r.uuid = j.contains("uuid") ? optional_at<std::string>(j, "uuid") : std::nullopt;
  r.name = j.at("name").get<std::string>();
  r.cc_major = integer_at(j, "cc_major", 0, 1000);
  r.cc_minor = integer_at(j, "cc_minor", 0, 1000);
  r.sm_count = integer_at(j, "sm_count", 0, kMaxCount);
  r.memory_bytes = integer_at<std::uint64_t>(j, "memory_bytes", 0, kMaxDocumentBytes);
  r.link = j.at("link").get<std::string>();
  r.link_gbps = optional_at<double>(j, "link_gbps");
  r.numa_node = integer_at(j, "numa_node", -1, kMaxCount);
  r.cpuset = j.at("cpuset").get<std::string>();
}

void to_json(json& j, const GateRecord& r) {
  j = json{{"decision", r.decision ? json(*r.decision) : json(nullptr)},
           {"detail", r.detail},
           {"reasons", r.reasons ? json(*r.reasons) : json(nullptr)}};
}

void from_json(const json& j, GateRecord& r) {
  r.decision = j.at("decision").is_null()
                   ? std::nullopt
                   : std::optional<topo::GateVerdict>(j.at("decision").get<topo::GateVerdict>());
  r.detail = j.at("detail").get<std::string>();
  r.reasons = j.at("reasons").is_null()
                  ? std::nullopt
                  : std::optional<topo::GateDecision>(j.at("reasons").get<topo::GateDecision>());
}

void to_json(json& j, const BenchDocument& r) {
  j = json::object();
  write_header(j, BenchDocument::kSchema, BenchDocument::kVersion);
  j["written_by"] = r.written_by;
  j["tool_version"] = r.tool_version;
  j["started_utc"] = r.started_utc;
  j["host"] = json{{"hostname", r.hostname},
                   {"nvidia_driver_version", r.nvidia_driver_version},
                   {"cuda_driver_version", r.cuda_driver_version},
                   {"cuda_runtime_version", r.cuda_runtime_version},
                   {"environment", r.environment}};
  j["topology_source"] = r.topology_source;
  j["gate"] = r.gate;
  j["skip_gate"] = r.skip_gate;
  j["topology"] = r.topology ? json(*r.topology) : json(nullptr);
  j["options"] = json{{"samples", r.samples},           {"warmup_samples", r.warmup_samples},
                      {"sizes_bytes", r.sizes_bytes},   {"full_sweep", r.full_sweep},
                      {"cpu_affinity", r.cpu_affinity}, {"host_memory", r.host_memory}};
  j["logical_gpus"] = r.logical_gpus;
  j["gpu_selection"] = r.gpu_selection;
  j["gpus"] = r.gpus;
  j["p2p_access"] = r.p2p_access;
  j["bandwidth"] = r.bandwidth;
  j["latency"] = r.latency;
  j["sweeps"] = r.sweeps;
  j["nccl"] = r.nccl ? json(*r.nccl) : json(nullptr);
  j["warnings"] = r.warnings;
  j["interrupted"] = r.interrupted.empty() ? json(nullptr) : json(r.interrupted);
  j["gpu_sharing"] = r.gpu_sharing ? json(*r.gpu_sharing) : json(nullptr);
  j["resources"] = json{{"wall_s", optional_json(r.wall_s)},
                        {"peak_rss_bytes", optional_json(r.peak_rss_bytes)}};
  if (!r.imported.empty()) j["imported"] = r.imported;
  j["verdict"] = r.verdict ? json(*r.verdict) : json(nullptr);
}

void from_json(const json& j, BenchDocument& r) {
  const int version = value_at<int>(j, "version");
  check_header(j, BenchDocument::kSchema,
               version >= BenchDocument::kOldestReadableVersion && version < BenchDocument::kVersion
                   ? version
                   : BenchDocument::kVersion);
  r.written_by = version >= 2 ? j.at("written_by").get<std::string>() : "bench";
  r.tool_version = j.at("tool_version").get<std::string>();
  r.started_utc = j.at("started_utc").get<std::string>();
  const json& host = j.at("host");
  r.hostname = host.at("hostname").get<std::string>();
  r.nvidia_driver_version = host.at("nvidia_driver_version").get<std::string>();
  r.cuda_driver_version = host.at("cuda_driver_version").get<std::string>();
  r.cuda_runtime_version = host.at("cuda_runtime_version").get<std::string>();
  r.environment = host.at("environment").get<std::string>();
  r.topology_source = j.at("topology_source").get<std::string>();
  r.gate = j.at("gate").get<GateRecord>();
  r.skip_gate = j.at("skip_gate").get<bool>();
  if (!j.at("topology").is_null())
    r.topology = topo::snapshot_from_json(j.at("topology"), "topology");
  const json& opts = j.at("options");
  r.samples = integer_at(opts, "samples", 0, kMaxCount);
  r.warmup_samples = integer_at(opts, "warmup_samples", 0, kMaxCount);
  r.sizes_bytes = integers_at<std::uint64_t>(opts, "sizes_bytes", 1, kMaxDocumentBytes);
  r.full_sweep = opts.contains("full_sweep") ? opts.at("full_sweep").get<bool>()
                                             : true;  // older runs swept all
  r.cpu_affinity = opts.at("cpu_affinity").get<bool>();
  r.host_memory = opts.at("host_memory").get<std::string>();
  r.logical_gpus = version >= 3 ? integer_at(j, "logical_gpus", 0, kMaxGpus) : 0;
  r.gpu_selection = version >= 4 ? j.at("gpu_selection").get<std::string>() : "";
  r.gpus = j.at("gpus").get<std::vector<GpuRecord>>();
  r.p2p_access = bool_rows_at(j, "p2p_access");
  r.bandwidth = j.at("bandwidth").get<std::vector<BandwidthResult>>();
  r.latency = j.at("latency").get<std::vector<LatencyResult>>();
  r.sweeps = j.at("sweeps").get<std::vector<SweepSummary>>();
  if (version >= 2 && !j.at("nccl").is_null()) r.nccl = j.at("nccl").get<NcclResultsSection>();
  r.warnings = j.at("warnings").get<std::vector<std::string>>();
  // Optional within version 3 (imported documents and the first v3 runs have none of them).
  r.interrupted =
      j.contains("interrupted") ? optional_at<std::string>(j, "interrupted").value_or("") : "";
  if (j.contains("gpu_sharing") && !j.at("gpu_sharing").is_null())
    r.gpu_sharing = j.at("gpu_sharing").get<SharingRecord>();
  if (j.contains("resources")) {
    const json& res = j.at("resources");
    r.wall_s = optional_at<double>(res, "wall_s");
    r.peak_rss_bytes = optional_at<std::uint64_t>(res, "peak_rss_bytes");
  }
  r.imported = j.contains("imported") ? j.at("imported").get<std::vector<ImportedFile>>()
                                      : std::vector<ImportedFile>{};
  if (version >= 4 && !j.at("verdict").is_null()) r.verdict = j.at("verdict").get<RunVerdict>();
}

FigureCounts count_figures(const BenchDocument& doc) {
  FigureCounts c;
  const auto add = [&c](FigureStatus status) {
    c.ok += status == FigureStatus::kOk;
    c.failed += status == FigureStatus::kFailed;
    c.waived += status == FigureStatus::kWaived;
    c.errors += status == FigureStatus::kError;
  };
  for (const auto& r : doc.bandwidth) add(r.status);
  for (const auto& r : doc.latency) add(r.status);
  return c;
}

std::string gpu_label(const GpuRecord& g) {
  return "gpu" + std::to_string(g.logical_gpu.value_or(g.cuda_ordinal));
}

std::string describe_resources(const BenchDocument& doc) {
  if (!doc.wall_s && !doc.peak_rss_bytes) return "";
  char line[128];
  std::snprintf(
      line, sizeof line, "run: %.1f s wall, peak memory %.2f GB (this process and its children)\n",
      doc.wall_s.value_or(0.0), static_cast<double>(doc.peak_rss_bytes.value_or(0)) / 1e9);
  return line;
}

std::string gpu_selection_text(const std::vector<int>& requested,
                               const char* cuda_visible_devices) {
  std::string out;
  if (!requested.empty()) {
    out = "--gpus ";
    for (std::size_t i = 0; i < requested.size(); ++i)
      out += (i ? "," : "") + std::to_string(requested[i]);
  }
  if (cuda_visible_devices != nullptr && *cuda_visible_devices != '\0')
    out += (out.empty() ? "" : "; ") + std::string("CUDA_VISIBLE_DEVICES=") + cuda_visible_devices;
  return out;
}

int device_count(const BenchDocument& doc) {
  std::set<int> devices;
  for (const auto& g : doc.gpus) devices.insert(g.cuda_ordinal);
  return static_cast<int>(devices.size());
}

std::string logical_gpus_banner(int logical_gpus, int devices) {
  if (logical_gpus <= 0) return "";
  return std::to_string(logical_gpus) + " logical GPU" + (logical_gpus == 1 ? "" : "s") + " on " +
         std::to_string(devices) + " device" + (devices == 1 ? "" : "s") +
         ": figures measure the tool, not the links";
}

std::string logical_gpus_note(const BenchDocument& doc) {
  return logical_gpus_banner(doc.logical_gpus, device_count(doc));
}

BenchDocument bench_document_from_json(const json& j, const std::string& source) {
  try {
    return j.get<BenchDocument>();
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  } catch (const json::exception& e) {
    throw InputError(source + ": " + json_error_tail(e.what()));
  }
}

BenchDocument read_bench_document_file(const std::string& path) {
  return bench_document_from_json(read_json_file(path), path);
}

const NcclResultsSection& nccl_section_of(const BenchDocument& doc, const std::string& source) {
  if (!doc.nccl) {
    throw InputError(source + ": holds no NCCL results (the document was written by `p2pcheck " +
                     doc.written_by + "`)");
  }
  return *doc.nccl;
}

NcclResultsSection read_nccl_section(const std::string& path) {
  return nccl_section_of(read_bench_document_file(path), path);
}

}  // namespace p2p::doc
