#include "nccl/report.hpp"

#include "common/file_io.hpp"
#include "nccl/json_util.hpp"

namespace p2p::nccl {

void to_json(nlohmann::json& j, const NcclReport& r) {
  j = {{"schema", "p2pcheck.nccl_report"},
       {"version", NcclReport::kVersion},
       {"run", r.run},
       {"p2p_off", r.p2p_off ? nlohmann::json(*r.p2p_off) : nlohmann::json(nullptr)},
       {"min_busbw_gbps", optional_json(r.min_busbw_gbps)},
       {"verdicts", r.verdicts}};
}

void from_json(const nlohmann::json& j, NcclReport& r) {
  require_schema(j, "p2pcheck.nccl_report", NcclReport::kVersion);
  r.run = j.at("run").get<NcclRun>();
  r.p2p_off = optional_from<NcclRun>(j, "p2p_off");
  r.min_busbw_gbps = optional_from<double>(j, "min_busbw_gbps");
  r.verdicts = j.at("verdicts").get<std::vector<BusbwVerdict>>();
}

void write_report(const std::string& path, const NcclReport& report) {
  write_text_file_atomically(path, nlohmann::json(report).dump(2) + "\n");
}

NcclReport read_report(const std::string& path) {
  const nlohmann::json j = read_json_file(path);
  try {
    return j.get<NcclReport>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": not a p2pcheck NCCL report: " + e.what());
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

}  // namespace p2p::nccl
