#include "cluster/node_lines.hpp"

#include "document/fleet_lines.hpp"
#include "report/run_lines.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::cluster {

nlohmann::json host_line(const std::string& host, const std::string& utc,
                         const std::string& tool_version, const std::string& source,
                         std::optional<int> rank) {
  return report::jsonl_line("host", kNodeCommand, host, utc,
                            doc::NodeHost{host, tool_version, source, rank});
}

nlohmann::json topology_line(const topo::TopologySnapshot& t, const std::string& host,
                             const std::string& utc) {
  return report::jsonl_line("topology", kNodeCommand, host, utc, nlohmann::json(t));
}

nlohmann::json step_line(const std::string& step, int exit_code, const std::string& summary,
                         const std::string& host, const std::string& utc) {
  return report::jsonl_line("step", kNodeCommand, host, utc,
                            doc::StepRecord{step, exit_code, summary});
}

}  // namespace p2p::cluster
