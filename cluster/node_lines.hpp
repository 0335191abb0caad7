// The lines only the node chain writes, beside the shared ones of report/run_lines.hpp
// (doctor findings and verdict, gate reasons and decision, figures): who the host is, its
// topology snapshot, and one line per completed step. host_lines.hpp reads them back.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "topology/snapshot.hpp"

namespace p2p::cluster {

constexpr const char* kNodeCommand = "node";

// kind "host": {hostname, tool_version, source ("live" | "fixture"), rank (MPI rank or null)}.
nlohmann::json host_line(const std::string& host, const std::string& utc,
                         const std::string& tool_version, const std::string& source,
                         std::optional<int> rank);

// kind "topology": the snapshot as `topo --format json` writes it.
nlohmann::json topology_line(const topo::TopologySnapshot& t, const std::string& host,
                             const std::string& utc);

// kind "step": {step, exit_code, summary}.
nlohmann::json step_line(const std::string& step, int exit_code, const std::string& summary,
                         const std::string& host, const std::string& utc);

}  // namespace p2p::cluster
