// --input files: hwloc XML or snapshot JSON, and environment sidecars.
#include <filesystem>
#include <set>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/strict_json.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/environment.hpp"
#include "topology/nvidia_smi_topo.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::topo {

TopologySnapshot load_topology(const std::string& path) {
  return load_topology_text(read_text_file(path), path);
}

TopologySnapshot load_topology_text(const std::string& text, const std::string& path) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw InputError(path + ": empty file");
  TopologySnapshot t;
  if (text[first] == '<') {
    t = snapshot_from_hwloc_xml_text(text, path);
  } else if (text[first] == '{') {
    if (text.size() > kMaxSnapshotBytes)
      throw InputError(path + ": " + std::to_string(text.size() >> 20) +
                       " MiB: larger than a snapshot of " + std::to_string(kMaxTopologyGpus) +
                       " GPUs, the most a topology p2pcheck reads holds");
    t = snapshot_from_json(parse_json_text(text, path), path);
  } else if (topo::looks_like_nvidia_smi_topo(text)) {
    // Text: a pasted `nvidia-smi topo -m` (told by its content: a "GPU0 ..." header and a matrix).
    t = topo::snapshot_from_nvidia_smi_topo(text, path);
  } else if (topo::looks_like_nvidia_smi_p2p(text)) {
    throw InputError(
        path +
        ": an nvidia-smi topo -p2p capture holds P2P status only, no topology: give it with "
        "--p2p beside an nvidia-smi topo -m capture");
  } else {
    throw InputError(
        path +
        ": neither an hwloc XML topology, a p2pcheck snapshot (JSON) nor an nvidia-smi topo -m capture");
  }
  if (t.gpus.size() > kMaxTopologyGpus)
    throw InputError(path + ": " + std::to_string(t.gpus.size()) + " GPUs: more than the " +
                     std::to_string(kMaxTopologyGpus) + " a topology p2pcheck reads holds");
  require_distinct_gpus(t, path);
  return t;
}

void require_distinct_gpus(const TopologySnapshot& t, const std::string& source) {
  std::set<std::string> seen;
  for (const auto& g : t.gpus) {
    if (g.pci_bus_id.empty()) continue;  // a capture that cannot say
    if (!seen.insert(g.pci_bus_id).second) {
      throw InputError(source + ": two GPUs with PCI bus id " + g.pci_bus_id +
                       "; a topology lists each GPU once");
    }
  }
}

void apply_p2p_status_file(TopologySnapshot& t, const std::string& p2p_path) {
  const std::string text = read_text_file(p2p_path);
  topo::add_p2p_status(t, topo::p2p_status_from_nvidia_smi(text, p2p_path), p2p_path);
}

void apply_environment_facts_file(TopologySnapshot& t, const std::string& facts_path) {
  // A hand-written facts file: strict, so a misspelt key is an error naming it.
  const EnvironmentFacts facts = load_json_file(facts_path, [](const nlohmann::json& j) {
    try {
      return environment_facts_from_json(j, "");
    } catch (const InputError& e) {
      throw InputError(std::string("not p2pcheck environment facts: ") + e.what());
    }
  });
  t.environment = classify_environment(facts);
  // Where the facts came from (the file name only, so snapshots do not embed local paths).
  t.environment.evidence.push_back("facts recorded in " +
                                   std::filesystem::path(facts_path).filename().string());
}

}  // namespace p2p::topo
