#include "topology/snapshot_json.hpp"

#include <cstdio>
#include <stdexcept>

#include "common/error.hpp"
#include "common/json_text.hpp"
#include "common/json_util.hpp"
#include "topology/classify.hpp"
#include "topology/environment.hpp"

namespace p2p::topo {

namespace {

using nlohmann::json;

// Our own format violations; snapshot_from_json turns them into InputError with the file name.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string pci_id_text(std::uint16_t id) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", id);
  return buf;
}

std::uint16_t pci_id_from_text(const std::string& s, const char* key) {
  unsigned v = 0;
  char tail = 0;
  if (s.size() != 6 || std::sscanf(s.c_str(), "0x%4x%c", &v, &tail) != 1)
    throw FormatError(std::string("key `") + key + "`: expected a PCI id like \"0x10de\", got \"" +
                      s + "\"");
  return static_cast<std::uint16_t>(v);
}

std::vector<std::vector<std::string>> read_square(const json& j, const char* key, std::size_t n) {
  auto m = j.at(key).get<std::vector<std::vector<std::string>>>();
  if (m.size() != n) throw FormatError(std::string("`") + key + "` must have one row per GPU");
  for (const auto& row : m)
    if (row.size() != n)
      throw FormatError(std::string("`") + key + "` must be " + std::to_string(n) + " x " +
                        std::to_string(n));
  return m;
}

// "NV12" -> 12; 0 for anything else (including "NV" and "NV0").
int nvlink_count_from_label(const std::string& label) {
  if (label.size() < 3 || label.size() > 5 || label.compare(0, 2, "NV") != 0) return 0;
  int n = 0;
  for (std::size_t i = 2; i < label.size(); ++i) {
    if (label[i] < '0' || label[i] > '9') return 0;
    n = n * 10 + (label[i] - '0');
  }
  return n;
}

std::string cell_name(const char* key, std::size_t i, std::size_t k) {
  return std::string(key) + "[" + std::to_string(i) + "][" + std::to_string(k) + "]";
}

}  // namespace

void to_json(json& j, const PcieLink& l) {
  j = {{"gen", optional_json(l.gen)},
       {"width", optional_json(l.width)},
       {"gbps", optional_json(l.gbps)}};
}

void from_json(const json& j, PcieLink& l) {
  l.gen = optional_at<int>(j, "gen");
  l.width = optional_at<int>(j, "width");
  l.gbps = optional_at<double>(j, "gbps");
}

void to_json(json& j, const Gpu& g) {
  // An nvidia-smi capture names no bus id: unknown, so null.
  j = {{"pci_bus_id", g.pci_bus_id.empty() ? json(nullptr) : json(g.pci_bus_id)},
       {"vendor_id", pci_id_text(g.vendor_id)},
       {"device_id", pci_id_text(g.device_id)},
       {"name", g.name},
       {"numa_node", g.numa_node >= 0 ? json(g.numa_node) : json(nullptr)},
       {"cpuset", g.cpuset},
       {"link_current", g.link_current},
       {"link_max", g.link_max},
       {"host_bridge", g.host_bridge},
       {"pcie_path", g.pcie_path}};
}

void from_json(const json& j, Gpu& g) {
  g.pci_bus_id = optional_at<std::string>(j, "pci_bus_id").value_or("");
  g.vendor_id = pci_id_from_text(j.at("vendor_id").get<std::string>(), "vendor_id");
  g.device_id = pci_id_from_text(j.at("device_id").get<std::string>(), "device_id");
  j.at("name").get_to(g.name);
  g.numa_node = optional_at<int>(j, "numa_node").value_or(-1);
  j.at("cpuset").get_to(g.cpuset);
  j.at("link_current").get_to(g.link_current);
  j.at("link_max").get_to(g.link_max);
  j.at("host_bridge").get_to(g.host_bridge);
  j.at("pcie_path").get_to(g.pcie_path);
}

void to_json(json& j, const TopologySnapshot& t) {
  json gpus = json::array();
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    json g = t.gpus[i];
    g["index"] = i;
    gpus.push_back(std::move(g));
  }
  json pcie = json::array();
  for (std::size_t a = 0; a < t.pcie_matrix.size(); ++a) {
    json r = json::array();
    for (std::size_t b = 0; b < t.pcie_matrix[a].size(); ++b)
      r.push_back(pcie_class_known(t, a, b) ? json(to_string(t.pcie_matrix[a][b])) : json(nullptr));
    pcie.push_back(std::move(r));
  }
  j = {{"schema_version", TopologySnapshot::kSchemaVersion},
       {"source", t.source},
       {"hostname", t.hostname},
       {"gpus", std::move(gpus)},
       {"pcie_matrix", std::move(pcie)},
       {"matrix", display_matrix(t)},
       {"environment", t.environment}};
  // Added within schema 1, only where a capture supplied them, so other snapshots are unchanged.
  if (!t.nics.empty()) {
    json nics = json::array();
    for (const Nic& n : t.nics)
      nics.push_back({{"name", n.name}, {"device", n.device}, {"gpu_paths", n.gpu_paths}});
    j["nics"] = std::move(nics);
  }
  if (!t.p2p_status.empty()) {
    json p2p = json::array();
    for (const P2pStatus& s : t.p2p_status)
      p2p.push_back({{"capability", s.capability}, {"cells", s.cells}});
    j["p2p_status"] = std::move(p2p);
  }
}

void from_json(const json& j, TopologySnapshot& t) {
  const int version = value_at<int>(j, "schema_version");
  if (version != TopologySnapshot::kSchemaVersion)
    throw FormatError("schema_version " + std::to_string(version) +
                      " is not supported (this p2pcheck reads " +
                      std::to_string(TopologySnapshot::kSchemaVersion) + ")");
  j.at("source").get_to(t.source);
  j.at("hostname").get_to(t.hostname);
  j.at("gpus").get_to(t.gpus);
  if (t.gpus.empty())
    throw FormatError("`gpus` is empty: a snapshot records at least one NVIDIA GPU");
  j.at("environment").get_to(t.environment);
  const std::size_t n = t.gpus.size();
  // null cells: the PCIe class an nvidia-smi capture hides under NV# (allowed only there).
  json pcie_json = j.at("pcie_matrix");
  bool hidden = false;
  if (pcie_json.is_array()) {
    for (auto& row : pcie_json) {
      if (!row.is_array()) continue;
      for (auto& cell : row) {
        if (cell.is_null()) {
          cell = "SYS";
          hidden = true;
        }
      }
    }
  }
  json pcie_holder = {{"pcie_matrix", pcie_json}};
  const auto pcie = read_square(pcie_holder, "pcie_matrix", n);
  const auto shown = read_square(j, "matrix", n);
  t.pcie_matrix.assign(n, std::vector<PathClass>(n, PathClass::kSelf));
  t.nvlink_count.assign(n, std::vector<int>(n, 0));
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const auto c = path_class_from_string(pcie[a][b]);
      const bool diagonal = a == b;
      if (!c || c == PathClass::kNvLink || (c == PathClass::kSelf) != diagonal)
        throw FormatError(cell_name("pcie_matrix", a, b) + ": \"" + pcie[a][b] + "\" is not " +
                          (diagonal ? "X" : "one of PIX, PXB, PHB, NODE, SYS"));
      t.pcie_matrix[a][b] = *c;
      const std::string& label = shown[a][b];
      const int links = nvlink_count_from_label(label);
      if (j.at("pcie_matrix").at(a).at(b).is_null() && (diagonal || links == 0))
        throw FormatError(cell_name("pcie_matrix", a, b) +
                          ": null is allowed only where `matrix` says NV<n>");
      if (!diagonal && links > 0) {
        t.nvlink_count[a][b] = links;
      } else if (label != pcie[a][b]) {
        throw FormatError(cell_name("matrix", a, b) + ": \"" + label +
                          "\" is neither NV<n> nor the PCIe class \"" + pcie[a][b] + "\"");
      }
    }
  }
  t.pcie_hidden_by_nvlink = hidden;
  t.nics.clear();
  if (j.contains("nics")) {
    for (const auto& n : j.at("nics")) {
      Nic nic;
      n.at("name").get_to(nic.name);
      n.at("device").get_to(nic.device);
      n.at("gpu_paths").get_to(nic.gpu_paths);
      if (nic.gpu_paths.size() != t.gpus.size())
        throw FormatError("nics: \"" + nic.name + "\" must name one path per GPU");
      t.nics.push_back(std::move(nic));
    }
  }
  t.p2p_status.clear();
  if (j.contains("p2p_status")) {
    for (const auto& s : j.at("p2p_status")) {
      P2pStatus status;
      s.at("capability").get_to(status.capability);
      s.at("cells").get_to(status.cells);
      if (status.cells.size() != n) throw FormatError("p2p_status: one row per GPU expected");
      for (const auto& row : status.cells)
        if (row.size() != n)
          throw FormatError("p2p_status: must be " + std::to_string(n) + " x " + std::to_string(n));
      t.p2p_status.push_back(std::move(status));
    }
  }
}

TopologySnapshot snapshot_from_json(const json& j, const std::string& source) {
  try {
    return j.get<TopologySnapshot>();
  } catch (const FormatError& e) {
    throw InputError(source + ": not a p2pcheck topology snapshot: " + e.what());
  } catch (const InputError& e) {  // a number out of range (common/json_util.hpp)
    throw InputError(source + ": not a p2pcheck topology snapshot: " + e.what());
  } catch (const json::exception& e) {
    // "[json.exception.out_of_range.403] key 'gpus' not found": keep what follows the tag.
    std::string what = e.what();
    const auto cut = what.find("] ");
    if (cut != std::string::npos) what = what.substr(cut + 2);
    throw InputError(source + ": not a p2pcheck topology snapshot: " + what);
  }
}

std::string snapshot_to_json_text(const TopologySnapshot& t) { return json_text(json(t)) + "\n"; }

}  // namespace p2p::topo
