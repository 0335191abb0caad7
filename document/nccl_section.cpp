#include "document/nccl_section.hpp"

#include "document/json_limits.hpp"

namespace p2p::doc {

void to_json(nlohmann::json& j, const BusbwVerdict& v) {
  j = {{"schema", "p2pcheck.nccl_busbw_verdict"},
       {"version", BusbwVerdict::kVersion},
       {"collective", v.collective},
       {"dtype", v.dtype},
       {"in_place", v.in_place},
       {"src_rank", optional_json(v.src_rank)},
       {"dst_rank", optional_json(v.dst_rank)},
       {"saturation_bytes", optional_json(v.saturation_bytes)},
       {"judged_sizes", v.judged_sizes},
       {"median_busbw_gbps", optional_json(v.median_busbw_gbps)},
       {"lowest_busbw_gbps", optional_json(v.lowest_busbw_gbps)},
       {"min_busbw_gbps", v.min_busbw_gbps},
       {"status", v.status},
       {"detail", v.detail}};
}

void from_json(const nlohmann::json& j, BusbwVerdict& v) {
  require_schema(j, "p2pcheck.nccl_busbw_verdict", BusbwVerdict::kVersion);
  v.collective = j.at("collective").get<std::string>();
  v.dtype = j.at("dtype").get<std::string>();
  v.in_place = j.at("in_place").get<bool>();
  v.src_rank = optional_integer_at(j, "src_rank", 0, kMaxRanks - 1);
  v.dst_rank = optional_integer_at(j, "dst_rank", 0, kMaxRanks - 1);
  v.saturation_bytes =
      optional_integer_at<std::uint64_t>(j, "saturation_bytes", 1, kMaxDocumentBytes);
  v.judged_sizes = integer_at(j, "judged_sizes", 0, kMaxCount);
  v.median_busbw_gbps = optional_from<double>(j, "median_busbw_gbps");
  v.lowest_busbw_gbps = optional_from<double>(j, "lowest_busbw_gbps");
  v.min_busbw_gbps = j.at("min_busbw_gbps").get<double>();
  v.status = j.at("status").get<ThresholdStatus>();
  v.detail = j.at("detail").get<std::string>();
}

void to_json(nlohmann::json& j, const NcclResultsSection& r) {
  j = {{"schema", "p2pcheck.nccl_report"},
       {"version", NcclResultsSection::kVersion},
       {"run", r.run},
       {"p2p_off", r.p2p_off ? nlohmann::json(*r.p2p_off) : nlohmann::json(nullptr)},
       {"min_busbw_gbps", optional_json(r.min_busbw_gbps)},
       {"verdicts", r.verdicts}};
}

void from_json(const nlohmann::json& j, NcclResultsSection& r) {
  require_schema(j, "p2pcheck.nccl_report", NcclResultsSection::kVersion);
  r.run = j.at("run").get<NcclRun>();
  r.p2p_off = optional_from<NcclRun>(j, "p2p_off");
  r.min_busbw_gbps = optional_from<double>(j, "min_busbw_gbps");
  r.verdicts = j.at("verdicts").get<std::vector<BusbwVerdict>>();
}

}  // namespace p2p::doc
