#include "nccl/results_section.hpp"

#include "common/file_io.hpp"
#include "nccl/json_util.hpp"

namespace p2p::nccl {

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

NcclResultsSection nccl_section_from_document(const bench::BenchDocument& doc,
                                              const std::string& source) {
  if (doc.nccl.is_null()) {
    throw InputError(source + ": holds no NCCL results (the document was written by `p2pcheck " +
                     doc.written_by + "`)");
  }
  try {
    return doc.nccl.get<NcclResultsSection>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": malformed NCCL results: " + e.what());
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
}

NcclResultsSection read_nccl_section(const std::string& path) {
  return nccl_section_from_document(bench::read_bench_document_file(path), path);
}

}  // namespace p2p::nccl
