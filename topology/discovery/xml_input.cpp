// hwloc XML captures as input.
#include <cctype>
#include <cstring>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "topology/classify.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/discovery/hwloc_snapshot.hpp"

namespace p2p::topo {

namespace {

// hwloc 2.x reads 1.x and 2.x files but not 3.x (EINVAL); we take 2.x only, the format the
// fixtures and `lstopo` of the hwloc we link write, and say which version a file is so the
// user knows to re-capture rather than guess at an errno.
void check_xml_version(const std::string& path, const std::string& text) {
  const auto root = text.find("<topology");
  if (root == std::string::npos) throw InputError(path + ": not an hwloc topology XML (no <topology> element)");
  const auto end = text.find('>', root);
  const std::string tag = text.substr(root, end == std::string::npos ? std::string::npos : end - root);
  const auto attr = tag.find("version=\"");
  if (attr == std::string::npos)
    throw InputError(path +
                     ": hwloc 1.x XML format is not supported: capture it again with hwloc 2.x `lstopo --of xml`");
  const auto start = attr + std::strlen("version=\"");
  const std::string version = tag.substr(start, tag.find('"', start) - start);
  if (version.rfind("2.", 0) != 0)
    throw InputError(path + ": hwloc XML version " + version +
                     " is not supported (this p2pcheck reads hwloc 2.x XML, as `lstopo --of xml` of hwloc 2.x writes)");
}

}  // namespace

TopologySnapshot snapshot_from_hwloc_xml(const std::string& path) {
  return snapshot_from_hwloc_xml_text(read_text_file(path), path);
}

TopologySnapshot snapshot_from_hwloc_xml_text(const std::string& text, const std::string& path) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '<') throw InputError(path + ": not an XML file");
  check_xml_version(path, text);
  TopologySnapshot t;
  try {
    t = snapshot_from_hwloc(HwlocTopology::from_xml_text(text));
  } catch (const ApiError& e) {
    const std::string why = e.code != 0 ? std::strerror(e.code) : "not a consistent hwloc topology";
    throw InputError(path + ": hwloc cannot load this XML (" + why + ")");
  }
  if (t.gpus.empty())
    throw InputError(path + ": no NVIDIA GPU (PCI vendor 0x10de, class 0x0300/0x0302) in this topology");
  t.source = path;
  t.environment = Environment{};
  t.environment.evidence = {"from XML"};
  classify_snapshot(t);
  return t;
}

}  // namespace p2p::topo
