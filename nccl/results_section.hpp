// The NCCL section of the results document `p2pcheck nccl --json FILE` writes (bench's
// p2pcheck.bench.run, `nccl` field): the run, the optional P2P-off run beside it, and the
// --min-busbw verdicts.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/results.hpp"
#include "nccl/results.hpp"
#include "nccl/threshold.hpp"

namespace p2p::nccl {

struct NcclResultsSection {
  static constexpr int kVersion = 1;
  NcclRun run;                     // as configured (P2P allowed unless the user disabled it)
  std::optional<NcclRun> p2p_off;  // --compare-p2p-off: the same sweep with NCCL_P2P_DISABLE=1
  std::optional<double> min_busbw_gbps;
  std::vector<BusbwVerdict> verdicts;
};

void to_json(nlohmann::json& j, const NcclResultsSection& r);
void from_json(const nlohmann::json& j, NcclResultsSection& r);

// The NCCL section of a results document. InputError "<source>: ..." when the document holds
// none (bench wrote it) or the section is malformed or of another version.
NcclResultsSection nccl_section_from_document(const bench::BenchDocument& doc,
                                              const std::string& source);

// Reads a results document file and returns its NCCL section; InputError "PATH: ..." for a
// missing or malformed file as well.
NcclResultsSection read_nccl_section(const std::string& path);

}  // namespace p2p::nccl
