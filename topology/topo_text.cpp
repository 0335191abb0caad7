#include "topology/topo_text.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/text.hpp"
#include "topology/classify.hpp"
#include "topology/environment.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::topo {

namespace {

constexpr const char* kLegend =
    "Legend:\n"
    "  X    = the GPU itself\n"
    "  SYS  = through PCIe and the SMP interconnect between NUMA nodes (e.g. UPI, Infinity Fabric)\n"
    "  NODE = through PCIe and between PCIe host bridges inside one NUMA node\n"
    "  PHB  = through PCIe and a PCIe host bridge (the CPU's root complex)\n"
    "  PXB  = through several PCIe bridges/switches, no host bridge\n"
    "  PIX  = through a single PCIe switch (or bridge)\n"
    "  NV#  = through a bonded set of # NVLinks\n";

}  // namespace

std::string describe_environment(const Environment& e) {
  std::vector<std::string> details;
  if (!e.container.empty()) details.push_back("container " + e.container);
  if (!e.hypervisor.empty()) details.push_back("hypervisor " + e.hypervisor);
  if (!e.virtualization_mode.empty())
    details.push_back("NVML virtualization " + e.virtualization_mode);
  std::string out = e.kind;
  if (!details.empty()) out += " (" + join(details, "; ") + ")";
  if (!e.evidence.empty()) out += " [evidence: " + join(e.evidence, "; ") + "]";
  return out;
}

std::string gpudirect_text(const TopologySnapshot& t) {
  const bool any =
      std::any_of(t.gpudirect.begin(), t.gpudirect.end(),
                  [](const GpudirectCapability& c) { return c.state != GpudirectState::kAbsent; });
  // On bare metal no hypervisor adds the capability: say nothing unless something is there.
  if (t.gpudirect.empty() || (!inside_a_vm(t.environment) && !any)) return "";
  std::ostringstream out;
  out << "GPUDirect cliques (virtual P2P approval capability in each GPU's config space):\n";
  for (std::size_t i = 0; i < t.gpudirect.size() && i < t.gpus.size(); ++i)
    out << "  GPU" << i << "  " << (t.gpus[i].pci_bus_id.empty() ? "" : t.gpus[i].pci_bus_id + "  ")
        << describe_gpudirect(t.gpudirect[i]) << "\n";
  if (!any && t.gpus.size() > 1)
    out << "  none: the driver judges P2P from the emulated tree; `p2pcheck vm plan` on the host "
           "prints the clique settings\n";
  return out.str();
}

namespace {

// One line per GPU: bus id, vendor:device ids, name and PCIe link (with its maximum when known).
void write_gpu_lines(std::ostream& out, const TopologySnapshot& t) {
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    const Gpu& g = t.gpus[i];
    char ids[16];
    std::snprintf(ids, sizeof ids, "%04x:%04x", g.vendor_id, g.device_id);
    out << "GPU" << i << "  " << (g.pci_bus_id.empty() ? "(no bus id)" : g.pci_bus_id) << "  ["
        << ids << "]  " << (g.name.empty() ? "(name unknown)" : g.name) << "  PCIe "
        << describe_link(g.link_current);
    if (g.link_max.gen || g.link_max.width || g.link_max.gbps)
      out << " (max " << describe_link(g.link_max) << ")";
    out << "\n";
  }
  out << "\n";
}

// The header row of a GPU matrix: an empty corner, then GPU0 .. GPU<n-1>, left-aligned in
// columns of `cell` (the stream is left in std::left).
void write_gpu_header(std::ostream& out, std::size_t n, std::size_t cell) {
  out << std::left << std::setw(static_cast<int>(cell)) << "";
  for (std::size_t j = 0; j < n; ++j)
    out << std::setw(static_cast<int>(cell)) << ("GPU" + std::to_string(j));
}

// The matrix of path classes in the shape of `nvidia-smi topo -m`, with each GPU's CPU and NUMA
// affinity; `cell` is the column width, which the P2P status tables share.
void write_path_matrix(std::ostream& out, const TopologySnapshot& t,
                       const std::vector<std::vector<std::string>>& m, std::size_t cell) {
  const std::size_t n = t.gpus.size();
  std::size_t cpu_width = std::string("CPU Affinity").size() + 2;
  for (const Gpu& g : t.gpus) cpu_width = std::max(cpu_width, g.cpuset.size() + 2);
  write_gpu_header(out, n, cell);
  out << std::setw(static_cast<int>(cpu_width)) << "CPU Affinity"
      << "NUMA Affinity\n";
  for (std::size_t i = 0; i < n; ++i) {
    out << std::setw(static_cast<int>(cell)) << ("GPU" + std::to_string(i));
    for (std::size_t j = 0; j < n; ++j) out << std::setw(static_cast<int>(cell)) << m[i][j];
    const Gpu& g = t.gpus[i];
    out << std::setw(static_cast<int>(cpu_width)) << (g.cpuset.empty() ? "N/A" : g.cpuset)
        << (g.numa_node >= 0 ? std::to_string(g.numa_node) : "N/A") << "\n";
  }
  out << std::right << "\n";
}

// Each NIC's path class to every GPU, one line a NIC.
void write_nic_lines(std::ostream& out, const TopologySnapshot& t) {
  for (const Nic& nic : t.nics) {
    out << nic.name << (nic.device.empty() || nic.device == nic.name ? "" : " (" + nic.device + ")")
        << ":";
    for (std::size_t i = 0; i < nic.gpu_paths.size(); ++i)
      out << "  GPU" << i << " " << nic.gpu_paths[i];
    out << "\n";
  }
  if (!t.nics.empty()) out << "\n";
}

// The tables of `nvidia-smi topo -p2p` the snapshot carries, one per capability.
void write_p2p_status(std::ostream& out, const TopologySnapshot& t, std::size_t cell) {
  for (const P2pStatus& s : t.p2p_status) {
    out << "P2P status (nvidia-smi topo -p2p, " << s.capability << "):\n";
    write_gpu_header(out, t.gpus.size(), cell);
    out << "\n";
    for (std::size_t i = 0; i < s.cells.size(); ++i) {
      out << std::setw(static_cast<int>(cell)) << ("GPU" + std::to_string(i));
      for (const auto& c : s.cells[i]) out << std::setw(static_cast<int>(cell)) << c;
      out << "\n";
    }
    out << std::right << "\n";
  }
}

}  // namespace

std::string format_topology_text(const TopologySnapshot& t) {
  std::ostringstream out;
  out << "Source: " << t.source << (t.hostname.empty() ? "" : " (host " + t.hostname + ")") << "\n";
  write_gpu_lines(out, t);
  const auto m = display_matrix(t);
  std::size_t cell = 6;
  for (const auto& row : m)
    for (const auto& s : row) cell = std::max(cell, s.size() + 2);
  write_path_matrix(out, t, m, cell);
  write_nic_lines(out, t);
  write_p2p_status(out, t, cell);
  out << kLegend << "\n";
  out << "Environment: " << describe_environment(t.environment) << "\n";
  if (t.environment.kind == "vm")
    out << "Note: in a VM the PCIe tree is the hypervisor's emulation; the host's own topology may differ.\n";
  out << gpudirect_text(t);
  return out.str();
}

}  // namespace p2p::topo
