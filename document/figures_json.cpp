// JSON of the figure records of a results document (document/bench_document.hpp): a bandwidth,
// a latency, a sweep summary, and where an imported figure came from.
#include "common/error.hpp"
#include "common/json_util.hpp"
#include "document/bench_document.hpp"
#include "document/json_limits.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

// Optional additive keys: written only when present, so documents without them are unchanged.
template <class T>
void put_optional(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}
template <class T>
std::optional<T> get_optional(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<T>();
}

// A bandwidth is never below zero: a negative one was written by hand or by a broken tool, and
// judged it read "-84% of PCIe gen5 x16" and "regressed -200%".
std::optional<double> bandwidth_at(const json& j, const char* key) {
  const auto v = optional_at<double>(j, key);
  if (v && *v < 0)
    throw InputError(std::string(key) + ": " + json(*v).dump() + " is negative: not a bandwidth");
  return v;
}

}  // namespace

void to_json(json& j, const FigureSource& s) {
  j = {{"tool", s.tool}, {"version", s.version}, {"figure", s.figure}, {"unit", s.unit}};
}
void from_json(const json& j, FigureSource& s) {
  s.tool = j.at("tool").get<std::string>();
  s.version = j.at("version").get<std::string>();
  s.figure = j.at("figure").get<std::string>();
  s.unit = j.at("unit").get<std::string>();
}
void to_json(json& j, const ImportedFile& f) {
  j = {{"file", f.file},     {"tool", f.tool},       {"version", f.version},
       {"format", f.format}, {"figures", f.figures}, {"mappings", f.mappings},
       {"notes", f.notes}};
}
void from_json(const json& j, ImportedFile& f) {
  f.file = j.at("file").get<std::string>();
  f.tool = j.at("tool").get<std::string>();
  f.version = j.at("version").get<std::string>();
  f.format = j.at("format").get<std::string>();
  f.figures = checked_integer<int>(j.at("figures"), "figures", 0);
  f.mappings = j.at("mappings").get<std::vector<std::string>>();
  f.notes = j.at("notes").get<std::vector<std::string>>();
}

void to_json(json& j, const BandwidthResult& r) {
  j = json::object();
  write_schema_header(j, BandwidthResult::kSchema, BandwidthResult::kVersion);
  j["case"] = r.case_name;
  j["src"] = r.src;
  j["dst"] = r.dst;
  j["src_pci"] = r.src_pci;
  j["dst_pci"] = r.dst_pci;
  j["part"] = r.part;
  j["issued_by"] = r.issued_by;
  j["method"] = r.method;
  j["bytes"] = r.bytes;
  j["copies_per_sample"] = r.copies_per_sample;
  j["samples_gbps"] = r.samples_gbps;
  j["median_gbps"] = optional_json(r.median_gbps);
  j["min_gbps"] = optional_json(r.min_gbps);
  j["max_gbps"] = optional_json(r.max_gbps);
  j["spread_pct"] = optional_json(r.spread_pct);
  j["ceiling_gbps"] = optional_json(r.ceiling_gbps);
  j["ceiling_link"] = r.ceiling_link;
  j["achieved_pct"] = optional_json(r.achieved_pct);
  j["p2p"] = optional_json(r.p2p);
  j["status"] = r.status;
  j["detail"] = r.detail;
  j["bad_words"] = r.bad_words;
  put_optional(j, "source", r.source);
  if (!r.not_meaningful.empty()) j["not_meaningful"] = r.not_meaningful;
}

void from_json(const json& j, BandwidthResult& r) {
  require_schema(j, BandwidthResult::kSchema, BandwidthResult::kVersion);
  r.case_name = j.at("case").get<std::string>();
  r.src = j.at("src").get<std::string>();
  r.dst = j.at("dst").get<std::string>();
  r.src_pci = j.at("src_pci").get<std::string>();
  r.dst_pci = j.at("dst_pci").get<std::string>();
  r.part = j.at("part").get<std::string>();
  r.issued_by = j.at("issued_by").get<std::string>();
  r.method = j.at("method").get<std::string>();
  r.bytes = integer_at<std::uint64_t>(j, "bytes", 1, kMaxDocumentBytes);
  r.copies_per_sample = integer_at(j, "copies_per_sample", 0, kMaxCount);
  r.samples_gbps = j.at("samples_gbps").get<std::vector<double>>();
  for (const double s : r.samples_gbps)
    if (s < 0)
      throw InputError("samples_gbps: " + json(s).dump() + " is negative: not a bandwidth");
  r.median_gbps = bandwidth_at(j, "median_gbps");
  r.min_gbps = bandwidth_at(j, "min_gbps");
  r.max_gbps = bandwidth_at(j, "max_gbps");
  r.spread_pct = optional_at<double>(j, "spread_pct");
  r.ceiling_gbps = bandwidth_at(j, "ceiling_gbps");
  r.ceiling_link = j.at("ceiling_link").get<std::string>();
  r.achieved_pct = optional_at<double>(j, "achieved_pct");
  r.p2p = optional_at<bool>(j, "p2p");
  r.status = j.at("status").get<FigureStatus>();
  r.detail = j.at("detail").get<std::string>();
  r.bad_words = value_at<std::uint64_t>(j, "bad_words");
  r.source = get_optional<FigureSource>(j, "source");
  r.not_meaningful = get_optional<std::string>(j, "not_meaningful").value_or("");
}

void to_json(json& j, const LatencyResult& r) {
  j = json::object();
  write_schema_header(j, LatencyResult::kSchema, LatencyResult::kVersion);
  j["case"] = r.case_name;
  j["src"] = r.src;
  j["dst"] = r.dst;
  j["src_pci"] = r.src_pci;
  j["dst_pci"] = r.dst_pci;
  j["loads_per_sample"] = r.loads_per_sample;
  j["stride_bytes"] = r.stride_bytes;
  j["samples_ns"] = r.samples_ns;
  j["median_ns"] = optional_json(r.median_ns);
  j["min_ns"] = optional_json(r.min_ns);
  j["max_ns"] = optional_json(r.max_ns);
  j["spread_pct"] = optional_json(r.spread_pct);
  j["p2p"] = optional_json(r.p2p);
  j["status"] = r.status;
  j["detail"] = r.detail;
  put_optional(j, "source", r.source);
  if (!r.not_meaningful.empty()) j["not_meaningful"] = r.not_meaningful;
}

void from_json(const json& j, LatencyResult& r) {
  require_schema(j, LatencyResult::kSchema, LatencyResult::kVersion);
  r.case_name = j.at("case").get<std::string>();
  r.src = j.at("src").get<std::string>();
  r.dst = j.at("dst").get<std::string>();
  r.src_pci = j.at("src_pci").get<std::string>();
  r.dst_pci = j.at("dst_pci").get<std::string>();
  r.loads_per_sample = integer_at<std::uint64_t>(j, "loads_per_sample", 0, kMaxDocumentBytes);
  r.stride_bytes = integer_at<std::uint64_t>(j, "stride_bytes", 0, kMaxDocumentBytes);
  r.samples_ns = j.at("samples_ns").get<std::vector<double>>();
  r.median_ns = optional_at<double>(j, "median_ns");
  r.min_ns = optional_at<double>(j, "min_ns");
  r.max_ns = optional_at<double>(j, "max_ns");
  r.spread_pct = optional_at<double>(j, "spread_pct");
  r.p2p = optional_at<bool>(j, "p2p");
  r.status = j.at("status").get<FigureStatus>();
  r.detail = j.at("detail").get<std::string>();
  r.source = get_optional<FigureSource>(j, "source");
  r.not_meaningful = get_optional<std::string>(j, "not_meaningful").value_or("");
}

void to_json(json& j, const SweepSummary& r) {
  j = json::object();
  write_schema_header(j, SweepSummary::kSchema, SweepSummary::kVersion);
  j["case"] = r.case_name;
  j["src"] = r.src;
  j["dst"] = r.dst;
  j["part"] = r.part;
  j["peak_gbps"] = r.peak_gbps;
  j["peak_bytes"] = r.peak_bytes;
  j["bytes_at_90pct"] = optional_json(r.bytes_at_90pct);
}

void from_json(const json& j, SweepSummary& r) {
  require_schema(j, SweepSummary::kSchema, SweepSummary::kVersion);
  r.case_name = j.at("case").get<std::string>();
  r.src = j.at("src").get<std::string>();
  r.dst = j.at("dst").get<std::string>();
  r.part = j.at("part").get<std::string>();
  r.peak_gbps = j.at("peak_gbps").get<double>();
  r.peak_bytes = integer_at<std::uint64_t>(j, "peak_bytes", 0, kMaxDocumentBytes);
  r.bytes_at_90pct = optional_integer_at<std::uint64_t>(j, "bytes_at_90pct", 1, kMaxDocumentBytes);
}

}  // namespace p2p::doc
