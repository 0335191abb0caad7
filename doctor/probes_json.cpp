// CUDA, NVML and peer-copy probe results <-> JSON. The same codec carries a probe's result from the
// forked child to the parent, so a probe and a saved facts file can never disagree on layout.
#include "doctor/facts_json_parts.hpp"

namespace p2p::doctor {

using nlohmann::json;

namespace {

ProbeStatus checked_status(StrictReader& in, const std::string& where) {
  const std::string word = in.get<std::string>("status");
  if (const auto s = probe_status_named(word)) return *s;
  throw InputError(where + ".status: unknown probe status '" + word + "'");
}

json cuda_device_to_json(const CudaDevice& d) {
  return {{"ordinal", d.ordinal},
          {"name", d.name},
          {"pci_bus_id", d.pci_bus_id},
          {"cc_major", optional_json(d.cc_major)},
          {"cc_minor", optional_json(d.cc_minor)},
          {"context_result", optional_json(d.context_result)},
          {"alloc_result", optional_json(d.alloc_result)}};
}

CudaDevice cuda_device_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  CudaDevice d;
  in.get("ordinal", d.ordinal);
  in.get("name", d.name);
  in.get("pci_bus_id", d.pci_bus_id);
  in.opt("cc_major", d.cc_major);
  in.opt("cc_minor", d.cc_minor);
  in.opt("context_result", d.context_result);
  in.opt("alloc_result", d.alloc_result);
  in.finish();
  return d;
}

json nvml_device_to_json(const NvmlDevice& d) {
  return {{"index", d.index},
          {"pci_bus_id", d.pci_bus_id},
          {"name", d.name},
          {"uuid", optional_json(d.uuid)},
          {"architecture", optional_json(d.architecture)},
          {"virtualization_mode", optional_json(d.virtualization_mode)},
          {"pcie_gen_current", optional_json(d.pcie_gen_current)},
          {"pcie_gen_max", optional_json(d.pcie_gen_max)},
          {"pcie_width_current", optional_json(d.pcie_width_current)},
          {"pcie_width_max", optional_json(d.pcie_width_max)},
          {"bar1_total_bytes", optional_json(d.bar1_total_bytes)},
          {"persistence_mode", optional_json(d.persistence_mode)},
          {"compute_mode", optional_json(d.compute_mode)},
          {"gsp_firmware_enabled", optional_json(d.gsp_firmware_enabled)},
          {"gsp_firmware_version", optional_json(d.gsp_firmware_version)},
          {"fabric_state", optional_json(d.fabric_state)},
          {"fabric_status", optional_json(d.fabric_status)},
          {"health", d.health ? health_to_json(*d.health) : json(nullptr)}};
}

NvmlDevice nvml_device_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  NvmlDevice d;
  in.get("index", d.index);
  in.get("pci_bus_id", d.pci_bus_id);
  in.get("name", d.name);
  in.opt_later("uuid", d.uuid);
  in.opt("architecture", d.architecture);
  in.opt("virtualization_mode", d.virtualization_mode);
  in.opt("pcie_gen_current", d.pcie_gen_current);
  in.opt("pcie_gen_max", d.pcie_gen_max);
  in.opt("pcie_width_current", d.pcie_width_current);
  in.opt("pcie_width_max", d.pcie_width_max);
  in.opt("bar1_total_bytes", d.bar1_total_bytes);
  in.opt("persistence_mode", d.persistence_mode);
  in.opt("compute_mode", d.compute_mode);
  in.opt("gsp_firmware_enabled", d.gsp_firmware_enabled);
  in.opt("gsp_firmware_version", d.gsp_firmware_version);
  in.opt("fabric_state", d.fabric_state);
  in.opt("fabric_status", d.fabric_status);
  // Added to version 1 later: a document without it did not collect health facts.
  if (const json* h = in.find("health"); h != nullptr && !h->is_null())
    d.health = health_from_json(*h, in.path("health"));
  in.finish();
  return d;
}

json pair_to_json(const NvmlPair& p) {
  return {{"a", p.a},
          {"b", p.b},
          {"read", optional_json(p.read)},
          {"write", optional_json(p.write)},
          {"nvlink", optional_json(p.nvlink)},
          {"common_ancestor", optional_json(p.common_ancestor)}};
}

NvmlPair pair_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  NvmlPair p;
  in.get("a", p.a);
  in.get("b", p.b);
  in.opt("read", p.read);
  in.opt("write", p.write);
  in.opt("nvlink", p.nvlink);
  in.opt("common_ancestor", p.common_ancestor);
  in.finish();
  return p;
}

json peer_pair_to_json(const PeerCopyPair& p) {
  return {{"src", p.src},
          {"dst", p.dst},
          {"src_bus_id", p.src_bus_id},
          {"dst_bus_id", p.dst_bus_id},
          {"can_access_peer", optional_json(p.can_access_peer)},
          {"copy_result", to_string(p.copy_result)},
          {"copy_mismatched_words", optional_json(p.copy_mismatched_words)},
          {"store_result", to_string(p.store_result)},
          {"store_mismatched_words", optional_json(p.store_mismatched_words)},
          {"words", p.words},
          {"detail", p.detail}};
}

CopyResult checked_result(StrictReader& in, const char* key) {
  const std::string word = in.get<std::string>(key);
  if (const auto r = copy_result_named(word)) return *r;
  throw InputError(in.path(key) + ": unknown result '" + word + "' (expected " +
                   copy_result_words() + ")");
}

PeerCopyMode checked_mode(StrictReader& in) {
  const std::string word = in.get<std::string>("mode");
  if (const auto m = peer_copy_mode_named(word)) return *m;
  throw InputError(in.path("mode") + ": unknown mode '" + word + "' (expected " +
                   peer_copy_mode_words() + ")");
}

PeerCopyPair peer_pair_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  PeerCopyPair p;
  in.get("src", p.src);
  in.get("dst", p.dst);
  in.get("src_bus_id", p.src_bus_id);
  in.get("dst_bus_id", p.dst_bus_id);
  in.opt("can_access_peer", p.can_access_peer);
  p.copy_result = checked_result(in, "copy_result");
  in.opt("copy_mismatched_words", p.copy_mismatched_words);
  p.store_result = checked_result(in, "store_result");
  in.opt("store_mismatched_words", p.store_mismatched_words);
  in.get("words", p.words);
  in.get("detail", p.detail);
  in.finish();
  return p;
}

template <class T, class Fn>
json list(const std::vector<T>& v, Fn fn) {
  json a = json::array();
  for (const auto& x : v) a.push_back(fn(x));
  return a;
}

}  // namespace

json cuda_to_json(const CudaProbe& c) {
  return {{"status", to_string(c.status)},
          {"detail", c.detail},
          {"library_path", optional_json(c.library_path)},
          {"driver_version", optional_json(c.driver_version)},
          {"init_result", optional_json(c.init_result)},
          {"device_count", optional_json(c.device_count)},
          {"devices", list(c.devices, cuda_device_to_json)}};
}

CudaProbe cuda_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  CudaProbe c;
  c.status = checked_status(in, where);
  in.get("detail", c.detail);
  in.opt("library_path", c.library_path);
  in.opt("driver_version", c.driver_version);
  in.opt("init_result", c.init_result);
  in.opt("device_count", c.device_count);
  c.devices = strict_list<CudaDevice>(in.at("devices"), in.path("devices"), cuda_device_from_json);
  in.finish();
  return c;
}

json nvml_to_json(const NvmlProbe& n) {
  return {{"status", to_string(n.status)},
          {"detail", n.detail},
          {"library_path", optional_json(n.library_path)},
          {"init_result", optional_json(n.init_result)},
          {"driver_version", optional_json(n.driver_version)},
          {"cuda_driver_version", optional_json(n.cuda_driver_version)},
          {"device_count", optional_json(n.device_count)},
          {"devices", list(n.devices, nvml_device_to_json)},
          {"pairs", list(n.pairs, pair_to_json)}};
}

NvmlProbe nvml_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  NvmlProbe n;
  n.status = checked_status(in, where);
  in.get("detail", n.detail);
  in.opt("library_path", n.library_path);
  in.opt("init_result", n.init_result);
  in.opt("driver_version", n.driver_version);
  in.opt("cuda_driver_version", n.cuda_driver_version);
  in.opt("device_count", n.device_count);
  n.devices = strict_list<NvmlDevice>(in.at("devices"), in.path("devices"), nvml_device_from_json);
  n.pairs = strict_list<NvmlPair>(in.at("pairs"), in.path("pairs"), pair_from_json);
  in.finish();
  return n;
}

json peer_copy_to_json(const PeerCopyProbe& p) {
  return {{"status", to_string(p.status)},
          {"detail", p.detail},
          {"mode", to_string(p.mode)},
          {"pairs", list(p.pairs, peer_pair_to_json)}};
}

PeerCopyProbe peer_copy_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  PeerCopyProbe p;
  p.status = checked_status(in, where);
  in.get("detail", p.detail);
  p.mode = checked_mode(in);
  p.pairs = strict_list<PeerCopyPair>(in.at("pairs"), in.path("pairs"), peer_pair_from_json);
  in.finish();
  return p;
}

}  // namespace p2p::doctor
