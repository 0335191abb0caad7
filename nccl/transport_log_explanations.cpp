// The lines of an NCCL log that say why two GPUs do not use P2P, kept each once in the order
// first seen (NcclLog::p2p_explanations).
#include <algorithm>

#include "nccl/transport_log_support.hpp"

namespace p2p::nccl {

void add_explanation(NcclLog& log, const std::string& msg) {
  if (std::find(log.p2p_explanations.begin(), log.p2p_explanations.end(), msg) ==
      log.p2p_explanations.end())
    log.p2p_explanations.push_back(msg);
}

// Lines that say why two GPUs do not use P2P (transport/p2p.cc, graph/paths.cc, the environment).
bool explains_missing_p2p(const std::string& msg) {
  static const char* const kMarkers[] = {
      "P2P is disabled between", "Could not enable P2P",         "NCCL_P2P_DISABLE set by",
      "NCCL_P2P_LEVEL set by",   "NCCL_SHM_DISABLE set by",      "Legacy IPC not supported",
      "cudaDeviceCanAccessPeer", "peer access is not supported", "P2P disabled"};
  for (const char* m : kMarkers)
    if (msg.find(m) != std::string::npos) return true;
  return false;
}

// The NCCL_TOPO_FILE lines of graph/topo.cc and graph/xml.cc.
void read_topo_file_line(const std::string& msg, NcclLog& log) {
  static const std::string kSet = "NCCL_TOPO_FILE set by environment to ";
  static const std::string kLoading = "Loading topology file ";
  static const std::string kCannot = "Could not open XML topology file ";
  if (msg.rfind(kSet, 0) == 0) log.topo_file = msg.substr(kSet.size());
  if (msg.rfind(kLoading, 0) == 0) log.topo_file_loaded = true;
  if (msg.rfind(kCannot, 0) == 0) log.topo_file_error = msg;
}

std::string topo_file_state(const NcclLog& log) {
  if (!log.topo_file_error.empty())
    return "NOT read (" + log.topo_file_error + "): NCCL used the tree it sees";
  return log.topo_file_loaded ? "loaded" : "set (NCCL logged no error opening it)";
}

}  // namespace p2p::nccl
