#include "vm/nccl_topo_file.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "doctor/derived.hpp"
#include "vm/vm_config.hpp"

namespace p2p::vm {

namespace {

// NCCL's reader takes at most this many elements (NCCL_TOPO_XML_MAX_NODES, src/graph/topo.h).
constexpr std::size_t kMaxElements = 256;

struct Element {
  std::string busid;       // "" for a <cpu>
  std::string host_bdf;    // where it is on the host, for the comment
  int gen = 0, width = 0;  // the link up from it; 0 = unknown
  bool gpu = false;
  std::vector<Element> children;
};

// The speeds NCCL's dictionary knows (kvDictPciGen), by generation.
std::string link_speed(int gen) {
  static const char* const kSpeeds[] = {"",
                                        "2.5 GT/s PCIe",
                                        "5.0 GT/s PCIe",
                                        "8.0 GT/s PCIe",
                                        "16.0 GT/s PCIe",
                                        "32.0 GT/s PCIe",
                                        "64.0 GT/s PCIe"};
  return gen >= 1 && gen <= 6 ? kSpeeds[gen] : "";
}

Element& child(Element& parent, const std::string& busid) {
  for (auto& c : parent.children)
    if (c.busid == busid) return c;
  parent.children.push_back({});
  parent.children.back().busid = busid;
  return parent.children.back();
}

// A switch is recorded by its upstream port, below the root port: the bridges at odd places of
// the path from the host bridge (root port, upstream, downstream, upstream, ...), as NCCL's own
// sysfs walk records them. A GPU on a root port sits right under its <cpu>.
std::vector<std::string> switch_ports(const topo::Gpu& g) {
  std::vector<std::string> out;
  for (std::size_t k = 1; k < g.pcie_path.size(); k += 2) out.push_back(g.pcie_path[k]);
  return out;
}

// "0000:17:00.0" -> "ffff:17:00.0"; on a clash (two host domains) the next free bus of ffff.
std::string bridge_busid(const std::string& host_bdf, std::map<std::string, std::string>& given,
                         std::set<std::string>& taken) {
  if (const auto it = given.find(host_bdf); it != given.end()) return it->second;
  std::string id = "ffff" + host_bdf.substr(host_bdf.find(':'));
  for (int bus = 0xff; taken.count(id) != 0 && bus > 0; --bus) {
    char b[16];
    std::snprintf(b, sizeof b, "ffff:%02x:00.0", bus);
    id = b;
  }
  taken.insert(id);
  return given[host_bdf] = id;
}

std::size_t count(const Element& e) {
  std::size_t n = 1;
  for (const auto& c : e.children) n += count(c);
  return n;
}

// Every element on one line, attributes one space apart, two spaces per level: NCCL's reader
// refuses tabs and tags that span lines.
void write(std::ostream& out, const Element& e, int depth) {
  const std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
  out << pad << "<pci busid=\"" << e.busid << "\" class=\"" << (e.gpu ? "0x030200" : "0x060400")
      << "\"";
  if (!link_speed(e.gen).empty()) out << " link_speed=\"" << link_speed(e.gen) << "\"";
  if (e.width > 0) out << " link_width=\"" << e.width << "\"";
  if (e.children.empty()) {
    out << "/>";
    out << (e.host_bdf.empty() ? "" : " <!-- host " + e.host_bdf + " -->") << "\n";
    return;
  }
  out << ">" << (e.host_bdf.empty() ? "" : " <!-- host " + e.host_bdf + " -->") << "\n";
  for (const auto& c : e.children) write(out, c, depth + 1);
  out << pad << "</pci>\n";
}

// nvidia-smi's eight-digit domain made four (normalize_bdf), then read as a config's address is.
std::string checked_bus_id(const std::string& given) {
  std::string n = normalize_pci_address(doctor::normalize_bdf(trim(given)));
  if (n.empty())
    throw InputError("guest bus id '" + given + "' is not a PCI address (0000:01:00.0)");
  return n;
}

}  // namespace

std::string nccl_topology_xml(const topo::TopologySnapshot& host,
                              const std::vector<std::size_t>& gpus,
                              const std::vector<std::string>& guest_bus_ids) {
  if (gpus.size() != guest_bus_ids.size())
    throw InputError("the VM has " + std::to_string(gpus.size()) + " GPU(s) but " +
                     std::to_string(guest_bus_ids.size()) +
                     " guest bus id(s) were given: one per GPU, in the VM's order");
  std::map<int, Element> cpus;
  std::map<std::string, std::string> given;
  std::set<std::string> taken, guest;
  for (std::size_t k = 0; k < gpus.size(); ++k) {
    const topo::Gpu& g = host.gpus.at(gpus[k]);
    if (g.pci_bus_id.empty())
      throw InputError(host.source +
                       ": the host's topology has no bus ids or PCIe tree (an nvidia-smi "
                       "capture): give its hwloc XML or p2pcheck snapshot for --nccl-topo");
    const std::string id = checked_bus_id(guest_bus_ids[k]);
    if (!guest.insert(id).second) throw InputError("guest bus id " + id + " given twice");
    taken.insert(id);
    Element* at = &cpus[std::max(g.numa_node, 0)];
    const int gen = g.link_max.gen.value_or(0), width = g.link_max.width.value_or(0);
    for (const auto& port : switch_ports(g)) {
      at = &child(*at, bridge_busid(port, given, taken));
      at->host_bdf = port;
      at->gen = std::max(at->gen, gen);
      at->width = std::max(at->width, width);
    }
    Element& leaf = child(*at, id);
    leaf.gpu = true;
    leaf.host_bdf = g.pci_bus_id;
    leaf.gen = gen;
    leaf.width = width;
  }
  std::size_t elements = 1;
  for (const auto& [numa, cpu] : cpus) elements += count(cpu);
  if (elements > kMaxElements)
    throw InputError("the NCCL topology would hold " + std::to_string(elements) +
                     " elements, more than the " + std::to_string(kMaxElements) +
                     " NCCL's reader takes");
  std::ostringstream out;
  out << "<system version=\"1\">\n";
  // A comment ends at the first "-->": the source's name may not hold one.
  std::string source = host.source;
  for (std::size_t at = source.find("--"); at != std::string::npos; at = source.find("--", at))
    source.replace(at, 2, "- -");
  out << "  <!-- p2pcheck vm plan: the host's PCIe tree (" << source
      << ") for the VM's GPUs, each by its guest bus id; bridges in domain ffff -->\n";
  for (const auto& [numa, cpu] : cpus) {
    // No affinity, vendor or model: NCCL takes the guest's own (its vCPUs, its CPUID).
    out << "  <cpu numaid=\"" << numa << "\" arch=\"x86_64\">\n";
    for (const auto& c : cpu.children) write(out, c, 2);
    out << "  </cpu>\n";
  }
  out << "</system>\n";
  return out.str();
}

std::vector<std::string> nccl_topology_install(const topo::TopologySnapshot& host,
                                               const std::vector<std::vector<std::size_t>>& cliques,
                                               const std::string& file) {
  using topo::PathClass;
  PathClass widest = PathClass::kPix;
  for (const auto& c : cliques)
    for (std::size_t i = 0; i < c.size(); ++i)
      for (std::size_t k = i + 1; k < c.size(); ++k) {
        const bool nvlink = host.nvlink_count.size() > c[i] && host.nvlink_count[c[i]][c[k]] > 0;
        if (!nvlink) widest = std::max(widest, host.pcie_matrix[c[i]][c[k]]);
      }
  std::vector<std::string> out = {
      "copy " + file +
          " into the guest as /etc/nccl/topo.xml, and add the line "
          "NCCL_TOPO_FILE=/etc/nccl/topo.xml to the guest's /etc/nccl.conf (NCCL reads it at start)",
      "in the guest, NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH shows \"Loading topology "
      "file /etc/nccl/topo.xml\"; p2pcheck doctor in the guest checks the file names its GPUs"};
  // NCCL has no NODE: a path through a CPU is PHB to it, and its default limit is PXB.
  if (widest >= PathClass::kPhb)
    out.push_back(std::string("the cliques' paths go through the CPU (") +
                  (widest == PathClass::kSys ? "SYS" : "PHB") +
                  " to NCCL), above NCCL's default P2P limit (PXB since NCCL 2.23): add "
                  "NCCL_P2P_LEVEL=" +
                  (widest == PathClass::kSys ? "SYS" : "PHB") + " to /etc/nccl.conf as well");
  return out;
}

}  // namespace p2p::vm
