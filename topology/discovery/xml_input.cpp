// hwloc XML captures as input. The file is untrusted (pasted from a ticket, crafted) and hwloc
// 2.9 crashes on some malformed XML inside hwloc_topology_load, so hwloc reads it in a forked
// child: a crash or a hang there is bad input naming the file, never a dead p2pcheck.
#include <cstring>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/isolated.hpp"
#include "common/json_text.hpp"
#include "topology/classify.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/discovery/hwloc_snapshot.hpp"
#include "topology/discovery/xml_isolation.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::topo {

namespace {

using nlohmann::json;

// hwloc 2.x reads 1.x and 2.x files but not 3.x (EINVAL). 1.x files (no version attribute) are
// still what hwloc 1.11 writes, the lstopo of many long-lived clusters (the JUWELS and JUROPA
// captures in the fixtures), and hwloc 2 imports their PCI tree whole: they go to hwloc. A 3.x
// file is refused here with its version and the way to re-export it, rather than an errno.
void check_xml_version(const std::string& path, const std::string& text) {
  const auto root = text.find("<topology");
  if (root == std::string::npos)
    throw InputError(path + ": not an hwloc topology XML (no <topology> element)");
  const auto end = text.find('>', root);
  const std::string tag =
      text.substr(root, end == std::string::npos ? std::string::npos : end - root);
  const auto attr = tag.find("version=\"");
  if (attr == std::string::npos) return;  // hwloc 1.x format
  const auto start = attr + std::strlen("version=\"");
  const std::string version = tag.substr(start, tag.find('"', start) - start);
  if (version.rfind("2.", 0) != 0)
    throw InputError(path + ": hwloc XML version " + version +
                     " is not supported (this p2pcheck reads hwloc 1.x and 2.x XML: export it "
                     "again with `lstopo --of v2xml` of hwloc 3, or `lstopo --of xml` of hwloc 2)");
}

// The child's one line: {"snapshot": {...}}, {"input_error": "..."} or {"error": "..."}.
// Strings from the XML (GPU names) need not be UTF-8: replaced, never a failed dump.
std::string child_line(const json& j) { return json_text(j, -1); }

void load_in_child(const XmlLoader& load, const std::string& text, const std::string& path,
                   const Emit& emit) {
  try {
    emit(child_line({{"snapshot", load(text, path)}}));
  } catch (const InputError& e) {
    emit(child_line({{"input_error", e.what()}}));
  } catch (const std::exception& e) {
    emit(child_line({{"error", e.what()}}));
  }
}

}  // namespace

TopologySnapshot snapshot_from_hwloc_xml(const std::string& path) {
  return snapshot_from_hwloc_xml_text(read_text_file(path), path);
}

TopologySnapshot snapshot_from_hwloc_xml_text(const std::string& text, const std::string& path) {
  check_xml_text(text, path);  // here, not in the child: cheap, and the common failures
  return load_hwloc_xml_isolated(text, path, snapshot_from_hwloc_xml_in_process,
                                 kHwlocXmlTimeoutMs);
}

void check_xml_text(const std::string& text, const std::string& path) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '<')
    throw InputError(path + ": not an XML file");
  check_xml_version(path, text);
}

TopologySnapshot snapshot_from_hwloc_xml_in_process(const std::string& text,
                                                    const std::string& path) {
  check_xml_text(text, path);
  TopologySnapshot t;
  try {
    t = snapshot_from_hwloc(HwlocTopology::from_xml_text(text));
  } catch (const ApiError& e) {
    const std::string why = e.code != 0 ? std::strerror(e.code) : "not a consistent hwloc topology";
    throw InputError(path + ": hwloc cannot load this XML (" + why + ")");
  }
  if (t.gpus.empty())
    throw InputError(path +
                     ": no NVIDIA GPU (PCI vendor 0x10de, class 0x0300/0x0302) in this topology");
  t.source = path;
  t.environment = Environment{};
  t.environment.evidence = {"from XML"};
  classify_snapshot(t);
  return t;
}

TopologySnapshot load_hwloc_xml_isolated(const std::string& text, const std::string& path,
                                         const XmlLoader& load, int timeout_ms) {
  const IsolatedResult r =
      run_isolated([&](const Emit& emit) { load_in_child(load, text, path, emit); }, timeout_ms);
  if (r.status == IsolatedStatus::kCrashed)
    throw InputError(path + ": hwloc crashed reading this XML (" + r.detail + ")");
  if (r.status == IsolatedStatus::kTimedOut)
    throw InputError(path + ": hwloc did not finish reading this XML (" + r.detail + ")");
  if (r.status != IsolatedStatus::kCompleted || r.output.empty()) {
    throw InputError(path + ": hwloc stopped reading this XML (" +
                     (r.detail.empty() ? "no result" : r.detail) + ")");
  }
  // Our own child wrote this line: a line we cannot read back is our bug, not the user's.
  const json j = parse_own_json(r.output, path + ": hwloc reader output");
  if (j.contains("input_error")) throw InputError(j.at("input_error").get<std::string>());
  if (j.contains("error")) throw std::runtime_error(path + ": " + j.at("error").get<std::string>());
  return j.at("snapshot").get<TopologySnapshot>();
}

}  // namespace p2p::topo
