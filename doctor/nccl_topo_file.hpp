// The NCCL topology file the guest's NCCL will read (NCCL_TOPO_FILE, from the environment or
// /etc/nccl.conf) and the GPUs it names. In a VM, NCCL without it sees the hypervisor's emulated
// tree; with it, NCCL finds each of its GPUs in the file by bus id, and places a GPU the file
// does not name from the emulated tree again, silently. A file NCCL cannot open is skipped with
// no warning at the default log level. The facts are read by the collector; the rule is pure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "doctor/finding.hpp"
#include "doctor/observed.hpp"

namespace p2p::doctor {

struct Facts;

struct NcclTopoFileFacts {
  std::string path;                         // "" = NCCL_TOPO_FILE set nowhere
  std::string set_by;                       // "environment" | "/etc/nccl.conf"
  Observed<std::vector<std::string>> gpus;  // bus ids of the GPUs the file names
  bool checked() const { return !path.empty(); }
};

// The bus ids of the <pci> elements of a GPU's class (0x03...) in an NCCL topology file, lower
// case, in file order. Tolerant: it reads what NCCL's own reader would find, nothing more.
std::vector<std::string> nccl_topo_file_gpus(const std::string& xml);

// NCCL_TOPO_FILE=... in /etc/nccl.conf's text (NCCL reads NAME=VALUE lines; # starts a comment);
// "" where it is not set.
std::string nccl_conf_topo_file(const std::string& conf);

nlohmann::json nccl_topo_file_to_json(const NcclTopoFileFacts& t);
NcclTopoFileFacts nccl_topo_file_from_json(const nlohmann::json& j, const std::string& where);

// nccl.topo_file for the GPUs here (bus ids) in a VM or not; nullopt where nothing applies (no
// file set outside a VM or with fewer than two GPUs).
std::optional<Finding> judge_nccl_topo_file(const NcclTopoFileFacts& t,
                                            const std::vector<std::string>& here, bool vm);

namespace rules {
// nccl.topo_file: the file set, read, and naming every GPU here.
void nccl_topo_file(const Facts& f, std::vector<Finding>& out);
}  // namespace rules

}  // namespace p2p::doctor
