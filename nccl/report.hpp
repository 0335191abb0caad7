// The document `p2pcheck nccl --json FILE` writes: the run, the optional P2P-off run beside it,
// and the --min-busbw verdicts. Written atomically; read back with the same types.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "nccl/results.hpp"
#include "nccl/threshold.hpp"

namespace p2p::nccl {

struct NcclReport {
  static constexpr int kVersion = 1;
  NcclRun run;                      // as configured (P2P allowed unless the user disabled it)
  std::optional<NcclRun> p2p_off;   // --compare-p2p-off: the same sweep with NCCL_P2P_DISABLE=1
  std::optional<double> min_busbw_gbps;
  std::vector<BusbwVerdict> verdicts;
};

void to_json(nlohmann::json& j, const NcclReport& r);
void from_json(const nlohmann::json& j, NcclReport& r);

void write_report(const std::string& path, const NcclReport& report);  // atomic; "-" = stdout
// InputError "PATH: ..." for a missing, malformed or other-version document.
NcclReport read_report(const std::string& path);

}  // namespace p2p::nccl
