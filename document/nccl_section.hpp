// The NCCL section of the results document `p2pcheck nccl --json FILE` writes (key `nccl` of
// p2pcheck.bench.run; schema p2pcheck.nccl_report v1): the run, the optional P2P-off run beside
// it, and the --min-busbw verdicts. bench_document.hpp reads it as part of the document.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/nccl_run.hpp"
#include "document/outcome.hpp"

namespace p2p::doc {

// `--min-busbw` over one series (collective x dtype x placement [x pair]), judged on its
// saturated sizes (nccl/threshold.hpp).
struct BusbwVerdict {
  static constexpr int kVersion = 1;
  std::string collective;
  std::string dtype;
  bool in_place = false;
  std::optional<int> src_rank;
  std::optional<int> dst_rank;
  std::optional<std::uint64_t> saturation_bytes;
  int judged_sizes = 0;
  std::optional<double> median_busbw_gbps;  // over the judged sizes
  std::optional<double> lowest_busbw_gbps;
  double min_busbw_gbps = 0.0;
  ThresholdStatus status = ThresholdStatus::kNotJudged;
  std::string detail;
};

struct NcclResultsSection {
  static constexpr int kVersion = 1;
  NcclRun run;                     // as configured (P2P allowed unless the user disabled it)
  std::optional<NcclRun> p2p_off;  // --compare-p2p-off: the same sweep with NCCL_P2P_DISABLE=1
  std::optional<double> min_busbw_gbps;
  std::vector<BusbwVerdict> verdicts;
};

void to_json(nlohmann::json& j, const BusbwVerdict& v);
void from_json(const nlohmann::json& j, BusbwVerdict& v);
void to_json(nlohmann::json& j, const NcclResultsSection& r);
void from_json(const nlohmann::json& j, NcclResultsSection& r);

}  // namespace p2p::doc
