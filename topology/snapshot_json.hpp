// The snapshot's JSON form, a contract other tools read: top-level `schema_version`, `gpus`
// (each with `pci_bus_id`), `pcie_matrix` (N x N strings, "X" on the diagonal, PCIe classes
// elsewhere), `matrix` (NV<n> where NVLink joins the pair, else the PCIe class) and
// `environment`. Unknown values are null, never "N/A".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

void to_json(nlohmann::json& j, const GpudirectCapability& c);
void to_json(nlohmann::json& j, const PcieLink& l);
void from_json(const nlohmann::json& j, PcieLink& l);
void to_json(nlohmann::json& j, const Gpu& g);
void from_json(const nlohmann::json& j, Gpu& g);
// Writes pcie_matrix and matrix from the snapshot's pcie_matrix and nvlink_count.
void to_json(nlohmann::json& j, const TopologySnapshot& t);
// Strict: every key through j.at(); other schema versions, ragged or inconsistent matrices and
// malformed ids are rejected. nvlink_count is read back from the NV<n> entries of `matrix`.
void from_json(const nlohmann::json& j, TopologySnapshot& t);

// from_json with errors as one InputError line: "<source>: not a p2pcheck topology snapshot: ...".
TopologySnapshot snapshot_from_json(const nlohmann::json& j, const std::string& source);

// The text `topo --format json` prints and `--json` writes (2-space indent, trailing newline).
std::string snapshot_to_json_text(const TopologySnapshot& t);

}  // namespace p2p::topo
