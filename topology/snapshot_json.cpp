#include "topology/snapshot_json.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>

#include "common/error.hpp"
#include "common/json_text.hpp"
#include "common/json_util.hpp"
#include "common/strict_json.hpp"
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

std::uint16_t pci_id_from_text(const std::string& s, const std::string& key) {
  unsigned v = 0;
  char tail = 0;
  if (s.size() != 6 || std::sscanf(s.c_str(), "0x%4x%c", &v, &tail) != 1)
    throw FormatError(key + ": expected a PCI id like \"0x10de\", got \"" + s + "\"");
  return static_cast<std::uint16_t>(v);
}

std::vector<std::vector<std::string>> read_square(const json& v, const char* key, std::size_t n) {
  auto m = strict_as<std::vector<std::vector<std::string>>>(v, key);
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

// A number of a snapshot outside what hardware has ("PCIe Gen-7 x-7" was printed from one).
template <class T>
void require_range(const std::optional<T>& v, T lo, T hi, const std::string& where) {
  if (v && !(*v >= lo && *v <= hi))
    throw FormatError(where + ": " + json(*v).dump() + " is outside " + json(lo).dump() + " to " +
                      json(hi).dump());
}

PcieLink read_link(const json& j, const std::string& where) {
  StrictReader in(j, where);
  PcieLink l;
  in.opt("gen", l.gen);
  in.opt("width", l.width);
  in.opt("gbps", l.gbps);
  require_range(l.gen, 1, 7, in.path("gen"));           // PCIe 1.0 to 6.0, and the next
  require_range(l.width, 1, 32, in.path("width"));      // lanes: x1 to x32
  require_range(l.gbps, 0.0, 1000.0, in.path("gbps"));  // x32 Gen7 is about 500 GB/s
  in.finish();
  return l;
}

// `index`, which to_json(TopologySnapshot) adds, is checked by the snapshot's reader.
Gpu read_gpu(StrictReader& in) {
  Gpu g;
  std::optional<std::string> bus_id;
  in.opt("pci_bus_id", bus_id);
  g.pci_bus_id = bus_id.value_or("");
  g.vendor_id = pci_id_from_text(in.get<std::string>("vendor_id"), in.path("vendor_id"));
  g.device_id = pci_id_from_text(in.get<std::string>("device_id"), in.path("device_id"));
  in.get("name", g.name);
  std::optional<int> numa;
  in.opt("numa_node", numa);
  require_range(numa, 0, 4095, in.path("numa_node"));  // null where unknown
  g.numa_node = numa.value_or(-1);
  in.get("cpuset", g.cpuset);
  g.link_current = read_link(in.at("link_current"), in.path("link_current"));
  g.link_max = read_link(in.at("link_max"), in.path("link_max"));
  in.get("host_bridge", g.host_bridge);
  in.get("pcie_path", g.pcie_path);
  return g;
}

Gpu read_indexed_gpu(const json& j, const std::string& where, std::size_t index) {
  StrictReader in(j, where);
  Gpu g = read_gpu(in);
  if (const json* i = in.find("index")) {
    if (strict_as<std::size_t>(*i, in.path("index")) != index)
      throw FormatError(in.path("index") + ": " + i->dump() + " where " + std::to_string(index) +
                        " was expected (GPUs are listed in index order)");
  }
  in.finish();
  return g;
}

Nic read_nic(const json& j, const std::string& where, std::size_t gpus) {
  StrictReader in(j, where);
  Nic nic;
  in.get("name", nic.name);
  in.get("device", nic.device);
  in.get("gpu_paths", nic.gpu_paths);
  in.finish();
  if (nic.gpu_paths.size() != gpus)
    throw FormatError("nics: \"" + nic.name + "\" must name one path per GPU");
  return nic;
}

P2pStatus read_p2p_status(const json& j, const std::string& where, std::size_t n) {
  StrictReader in(j, where);
  P2pStatus status;
  in.get("capability", status.capability);
  in.get("cells", status.cells);
  in.finish();
  if (status.cells.size() != n) throw FormatError("p2p_status: one row per GPU expected");
  for (const auto& row : status.cells)
    if (row.size() != n)
      throw FormatError("p2p_status: must be " + std::to_string(n) + " x " + std::to_string(n));
  return status;
}

// One GPU's capability as the snapshot records it. A clique ID is four bits: a larger one in a
// hand-edited snapshot is refused rather than taken for a clique no hypervisor can set.
GpudirectCapability read_gpudirect(const json& j, const std::string& where) {
  StrictReader in(j, where);
  GpudirectCapability c;
  const auto state = gpudirect_state_named(in.get<std::string>("state"));
  if (!state)
    throw FormatError(in.path("state") + ": '" + in.get<std::string>("state") + "' is not one of " +
                      gpudirect_state_words());
  c.state = *state;
  in.opt("clique", c.clique);
  in.opt("offset", c.offset);
  in.get("detail", c.detail);
  in.finish();
  std::string key;
  const std::string problem = gpudirect_problem(c, key);
  if (!problem.empty()) throw FormatError(in.path(key) + ": " + problem);
  return c;
}

// Added within schema 1, only where the snapshot was taken live: one entry per GPU.
std::vector<GpudirectCapability> read_gpudirect_list(const json* list, std::size_t gpus) {
  if (list == nullptr) return {};
  auto out = strict_list<GpudirectCapability>(*list, "gpudirect", read_gpudirect);
  if (out.size() != gpus) throw FormatError("gpudirect: one entry per GPU expected");
  return out;
}

}  // namespace

void to_json(json& j, const GpudirectCapability& c) {
  j = {{"state", to_string(c.state)},
       {"clique", optional_json(c.clique)},
       {"offset", optional_json(c.offset)},
       {"detail", c.detail}};
}

void to_json(json& j, const PcieLink& l) {
  j = {{"gen", optional_json(l.gen)},
       {"width", optional_json(l.width)},
       {"gbps", optional_json(l.gbps)}};
}

void from_json(const json& j, PcieLink& l) { l = read_link(j, "link"); }

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
  StrictReader in(j, "gpu");
  g = read_gpu(in);
  in.find("index");  // written beside each GPU of a snapshot
  in.finish();
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
  if (!t.gpudirect.empty()) j["gpudirect"] = t.gpudirect;
}

// A golden snapshot is edited by hand: every key is read through StrictReader, so a misspelt one
// is an error naming it rather than a value silently left out.
void from_json(const json& j, TopologySnapshot& t) {
  StrictReader in(j, "");
  const int version = in.get<int>("schema_version");
  if (version != TopologySnapshot::kSchemaVersion)
    throw FormatError("schema_version " + std::to_string(version) +
                      " is not supported (this p2pcheck reads " +
                      std::to_string(TopologySnapshot::kSchemaVersion) + ")");
  in.get("source", t.source);
  in.get("hostname", t.hostname);
  t.gpus.clear();
  const json& gpus = in.at("gpus");
  if (!gpus.is_array())
    throw FormatError(std::string("gpus: expected an array, got ") + gpus.type_name());
  for (std::size_t i = 0; i < gpus.size(); ++i)
    t.gpus.push_back(read_indexed_gpu(gpus[i], "gpus[" + std::to_string(i) + "]", i));
  if (t.gpus.empty())
    throw FormatError("`gpus` is empty: a snapshot records at least one NVIDIA GPU");
  t.environment = environment_from_json(in.at("environment"), "environment");
  const std::size_t n = t.gpus.size();
  // null cells: the PCIe class an nvidia-smi capture hides under NV# (allowed only there).
  const json& pcie_original = in.at("pcie_matrix");
  json pcie_json = pcie_original;
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
  const auto pcie = read_square(pcie_json, "pcie_matrix", n);
  const auto shown = read_square(in.at("matrix"), "matrix", n);
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
      if (pcie_original.at(a).at(b).is_null() && (diagonal || links == 0))
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
  // Added within schema 1: absent from snapshots that had none.
  t.nics = in.find("nics") == nullptr ? std::vector<Nic>{}
                                      : strict_list<Nic>(*in.find("nics"), "nics",
                                                         [n](const json& v, const std::string& w) {
                                                           return read_nic(v, w, n);
                                                         });
  t.p2p_status = in.find("p2p_status") == nullptr
                     ? std::vector<P2pStatus>{}
                     : strict_list<P2pStatus>(*in.find("p2p_status"), "p2p_status",
                                              [n](const json& v, const std::string& w) {
                                                return read_p2p_status(v, w, n);
                                              });
  t.gpudirect = read_gpudirect_list(in.find("gpudirect"), n);
  in.finish();
}

TopologySnapshot snapshot_from_json(const json& j, const std::string& source) {
  try {
    return j.get<TopologySnapshot>();
  } catch (const FormatError& e) {
    throw InputError(source + ": not a p2pcheck topology snapshot: " + e.what());
  } catch (const InputError& e) {  // a key or type StrictReader refused, a number out of range
    throw InputError(source + ": not a p2pcheck topology snapshot: " + e.what());
  } catch (const json::exception& e) {
    throw InputError(source + ": not a p2pcheck topology snapshot: " + json_error_tail(e.what()));
  }
}

std::string snapshot_to_json_text(const TopologySnapshot& t) { return json_text(json(t)) + "\n"; }

}  // namespace p2p::topo
