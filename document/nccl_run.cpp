#include "document/nccl_run.hpp"

#include "document/json_limits.hpp"

namespace p2p::doc {

std::string placement_word(bool in_place) { return in_place ? "in_place" : "out_of_place"; }

void to_json(nlohmann::json& j, const CollectiveResult& r) {
  j = {{"schema", "p2pcheck.nccl_result"},
       {"version", CollectiveResult::kVersion},
       {"collective", r.collective},
       {"dtype", r.dtype},
       {"in_place", r.in_place},
       {"nranks", r.nranks},
       {"root", optional_json(r.root)},
       {"src_rank", optional_json(r.src_rank)},
       {"dst_rank", optional_json(r.dst_rank)},
       {"size_bytes", r.size_bytes},
       {"count", r.count},
       {"p2p_disabled", r.p2p_disabled},
       {"cuda_graph", r.cuda_graph},
       {"warmup_iterations", r.warmup_iterations},
       {"iterations", r.iterations},
       {"timing_samples", r.timing_samples},
       {"status", r.status},
       {"detail", r.detail},
       {"time_us", optional_json(r.time_us)},
       {"algbw_gbps", optional_json(r.algbw_gbps)},
       {"busbw_gbps", optional_json(r.busbw_gbps)},
       {"wrong_elements", optional_json(r.wrong_elements)}};
  if (!r.not_meaningful.empty()) j["not_meaningful"] = r.not_meaningful;
}

void from_json(const nlohmann::json& j, CollectiveResult& r) {
  require_schema(j, "p2pcheck.nccl_result", CollectiveResult::kVersion);
  r.collective = j.at("collective").get<std::string>();
  r.dtype = j.at("dtype").get<std::string>();
  r.in_place = j.at("in_place").get<bool>();
  r.nranks = integer_at(j, "nranks", 1, kMaxRanks);
  r.root = optional_integer_at(j, "root", 0, kMaxRanks - 1);
  r.src_rank = optional_integer_at(j, "src_rank", 0, kMaxRanks - 1);
  r.dst_rank = optional_integer_at(j, "dst_rank", 0, kMaxRanks - 1);
  r.size_bytes = integer_at<std::uint64_t>(j, "size_bytes", 1, kMaxDocumentBytes);
  r.count = integer_at<std::uint64_t>(j, "count", 0, kMaxDocumentBytes);
  r.p2p_disabled = j.at("p2p_disabled").get<bool>();
  r.cuda_graph = j.at("cuda_graph").get<bool>();
  r.warmup_iterations = integer_at(j, "warmup_iterations", 0, kMaxCount);
  r.iterations = integer_at(j, "iterations", 0, kMaxCount);
  r.timing_samples = integer_at(j, "timing_samples", 0, kMaxCount);
  r.status = j.at("status").get<CollectiveStatus>();
  r.detail = j.at("detail").get<std::string>();
  r.time_us = optional_from<double>(j, "time_us");
  r.algbw_gbps = optional_from<double>(j, "algbw_gbps");
  r.busbw_gbps = optional_from<double>(j, "busbw_gbps");
  r.wrong_elements = optional_from<std::uint64_t>(j, "wrong_elements");
  r.not_meaningful = j.contains("not_meaningful") ? j.at("not_meaningful").get<std::string>() : "";
}

void to_json(nlohmann::json& j, const DeviceRecord& d) {
  j = {{"rank", d.rank},        {"cuda_device", d.cuda_device}, {"pci_bus_id", d.pci_bus_id},
       {"name", d.name},        {"pid", optional_json(d.pid)},  {"host_id", d.host_id},
       {"hostname", d.hostname}};
}

void from_json(const nlohmann::json& j, DeviceRecord& d) {
  d.rank = integer_at(j, "rank", 0, kMaxRanks - 1);
  d.cuda_device = integer_at(j, "cuda_device", -1, kMaxRanks);
  d.pci_bus_id = j.at("pci_bus_id").get<std::string>();
  d.name = j.at("name").get<std::string>();
  // Added within version 1: absent in older documents.
  if (j.contains("pid") && !j.at("pid").is_null()) d.pid = value_at<int>(j, "pid");
  d.host_id = j.value("host_id", std::string());
  d.hostname = j.value("hostname", std::string());
}

void to_json(nlohmann::json& j, const RankProcessEnd& e) {
  j = {{"rank", e.rank},
       {"pid", e.pid},
       {"ended", e.ended},
       {"exit_code", optional_json(e.exit_code)},
       {"signal", optional_json(e.signal)},
       {"last_case", e.last_case},
       {"detail", e.detail}};
}

void from_json(const nlohmann::json& j, RankProcessEnd& e) {
  e.rank = integer_at(j, "rank", 0, kMaxRanks - 1);
  e.pid = value_at<int>(j, "pid");
  e.ended = j.at("ended").get<RankEnd>();
  e.exit_code = optional_from<int>(j, "exit_code");
  e.signal = optional_from<int>(j, "signal");
  e.last_case = j.at("last_case").get<std::string>();
  e.detail = j.at("detail").get<std::string>();
}

bool any_rank_hung(const NcclRun& run) {
  for (const auto& e : run.rank_process_ends) {
    if (e.ended == RankEnd::kHang || e.ended == RankEnd::kKilled) return true;
  }
  return false;
}

bool any_rank_died(const NcclRun& run) {
  for (const auto& e : run.rank_process_ends) {
    if (e.ended == RankEnd::kDied || e.ended == RankEnd::kKilled || e.ended == RankEnd::kNoResult)
      return true;
  }
  return false;
}

void to_json(nlohmann::json& j, const NcclEnvironment& e) {
  j = {{"schema", "p2pcheck.nccl_environment"},
       {"version", NcclEnvironment::kVersion},
       {"nccl_library_version_code", optional_json(e.nccl_library_version_code)},
       {"nccl_library_version", e.nccl_library_version},
       {"nccl_library_path", e.nccl_library_path},
       {"nccl_header_version_code", e.nccl_header_version_code},
       {"nccl_header_version", e.nccl_header_version},
       {"cuda_driver_version", optional_json(e.cuda_driver_version)},
       {"cuda_runtime_version", optional_json(e.cuda_runtime_version)},
       {"nccl_env_user", e.nccl_env_user},
       {"nccl_env_p2pcheck", e.nccl_env_p2pcheck},
       {"devices", e.devices},
       {"hostname", e.hostname},
       {"buffer_allocator", e.buffer_allocator},
       {"rank_processes", e.rank_processes}};
}

void from_json(const nlohmann::json& j, NcclEnvironment& e) {
  require_schema(j, "p2pcheck.nccl_environment", NcclEnvironment::kVersion);
  e.nccl_library_version_code = optional_from<int>(j, "nccl_library_version_code");
  e.nccl_library_version = j.at("nccl_library_version").get<std::string>();
  e.nccl_library_path = j.at("nccl_library_path").get<std::string>();
  e.nccl_header_version_code = value_at<int>(j, "nccl_header_version_code");
  e.nccl_header_version = j.at("nccl_header_version").get<std::string>();
  e.cuda_driver_version = optional_from<int>(j, "cuda_driver_version");
  e.cuda_runtime_version = optional_from<int>(j, "cuda_runtime_version");
  e.nccl_env_user = j.at("nccl_env_user").get<std::map<std::string, std::string>>();
  e.nccl_env_p2pcheck = j.at("nccl_env_p2pcheck").get<std::map<std::string, std::string>>();
  e.devices = j.at("devices").get<std::vector<DeviceRecord>>();
  e.hostname = j.at("hostname").get<std::string>();
  e.buffer_allocator = j.value("buffer_allocator", std::string());  // added within version 1
  e.rank_processes = j.value("rank_processes", false);              // added within version 1
}

void to_json(nlohmann::json& j, const NcclRun& r) {
  j = {{"schema", "p2pcheck.nccl_run"},
       {"version", NcclRun::kVersion},
       {"p2p_disabled", r.p2p_disabled},
       {"environment", r.environment},
       {"transport", r.transport},
       {"results", r.results},
       {"rank_process_ends", r.rank_process_ends},
       {"warnings", r.warnings}};
  if (r.cluster) j["cluster"] = *r.cluster;
}

void from_json(const nlohmann::json& j, NcclRun& r) {
  require_schema(j, "p2pcheck.nccl_run", NcclRun::kVersion);
  r.p2p_disabled = j.at("p2p_disabled").get<bool>();
  r.environment = j.at("environment").get<NcclEnvironment>();
  r.transport = j.at("transport").get<TransportMatrix>();
  r.results = j.at("results").get<std::vector<CollectiveResult>>();
  // Added within version 1: absent in older documents.
  r.rank_process_ends = j.value("rank_process_ends", std::vector<RankProcessEnd>());
  r.warnings = j.value("warnings", std::vector<std::string>());
  if (j.contains("cluster") && !j.at("cluster").is_null())
    r.cluster = j.at("cluster").get<NcclCluster>();
}

std::string format_nccl_version(int code) {
  if (code <= 0) return "unknown";
  // NCCL_VERSION(X,Y,Z) is X*10000+Y*100+Z from 2.9 on, X*1000+Y*100+Z before.
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int rest = code >= 10000 ? code % 10000 : code % 1000;
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." +
         std::to_string(rest % 100);
}

std::string format_cuda_version(int code) {
  if (code <= 0) return "unknown";
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

}  // namespace p2p::doc
