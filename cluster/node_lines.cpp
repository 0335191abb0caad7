#include "cluster/node_lines.hpp"

#include "common/json_util.hpp"
#include "report/run_lines.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::cluster {

nlohmann::json host_line(const std::string& host, const std::string& utc,
                         const std::string& tool_version, const std::string& source,
                         std::optional<int> rank) {
  return report::jsonl_line("host", kNodeCommand, host, utc,
                            {{"hostname", host},
                             {"tool_version", tool_version},
                             {"source", source},
                             {"rank", optional_json(rank)}});
}

nlohmann::json topology_line(const topo::TopologySnapshot& t, const std::string& host,
                             const std::string& utc) {
  return report::jsonl_line("topology", kNodeCommand, host, utc, nlohmann::json(t));
}

nlohmann::json step_line(const std::string& step, int exit_code, const std::string& summary,
                         const std::string& host, const std::string& utc) {
  return report::jsonl_line("step", kNodeCommand, host, utc,
                            {{"step", step}, {"exit_code", exit_code}, {"summary", summary}});
}

}  // namespace p2p::cluster
