// Facts <-> JSON. Files: top-level document, host sections (kernel, firmware, PCI, nodes,
// cgroup, IOMMU). The driver-library probes live in probes_json.cpp.
#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "doctor/facts.hpp"
#include "doctor/facts_json_parts.hpp"

namespace p2p::doctor {

using nlohmann::json;

namespace {

constexpr const char* kSchema = "p2pcheck.doctor.facts";

template <class T>
json plain(const T& v) {
  return json(v);
}

template <class T>
auto read_plain(const json& j, const std::string& where) {
  return strict_as<T>(j, where);
}

// The ceiling of a log in a facts file (docs/inputs-and-outputs.md, "Limits"): a live doctor
// keeps the first and last 100 driver lines, a file from elsewhere (weeks of journalctl -k) is
// judged up to this many, each line once.
constexpr std::size_t kMaxLogLines = 200000;

using LogLines = std::vector<std::string>;

Observed<LogLines> read_log_lines(const json& j, const std::string& where) {
  if (j.is_object()) {
    const auto value = j.find("value");
    if (value != j.end() && value->is_array() && value->size() > kMaxLogLines)
      throw InputError(where + ": " + std::to_string(value->size()) +
                       " lines, more than the 200,000 a facts file may hold");
  }
  return read_observed<LogLines>(j, where, read_plain<LogLines>);
}

json bridge_to_json(const Bridge& b) {
  return {{"bdf", b.bdf}, {"acs_control", write_observed(b.acs_control, plain<int>)}};
}

Bridge bridge_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  Bridge b;
  in.get("bdf", b.bdf);
  b.acs_control = read_observed<int>(in.at("acs_control"), in.path("acs_control"), read_plain<int>);
  in.finish();
  return b;
}

json pci_to_json(const PciFunction& p) {
  json up = json::array();
  for (const auto& b : p.upstream) up.push_back(bridge_to_json(b));
  return {{"bdf", p.bdf},
          {"vendor_id", p.vendor_id},
          {"device_id", p.device_id},
          {"class_code", p.class_code},
          {"numa_node", optional_json(p.numa_node)},
          {"current_link_gts", optional_json(p.current_link_gts)},
          {"max_link_gts", optional_json(p.max_link_gts)},
          {"current_link_width", optional_json(p.current_link_width)},
          {"max_link_width", optional_json(p.max_link_width)},
          {"aer_correctable", optional_json(p.aer_correctable)},
          {"aer_nonfatal", optional_json(p.aer_nonfatal)},
          {"aer_fatal", optional_json(p.aer_fatal)},
          {"driver", write_observed(p.driver, plain<std::string>)},
          {"bar1_bytes", optional_json(p.bar1_bytes)},
          {"iommu_group_type", optional_json(p.iommu_group_type)},
          {"upstream", up}};
}

PciFunction pci_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  PciFunction p;
  in.get("bdf", p.bdf);
  in.get("vendor_id", p.vendor_id);
  in.get("device_id", p.device_id);
  in.get("class_code", p.class_code);
  in.opt("numa_node", p.numa_node);
  in.opt("current_link_gts", p.current_link_gts);
  in.opt("max_link_gts", p.max_link_gts);
  in.opt("current_link_width", p.current_link_width);
  in.opt("max_link_width", p.max_link_width);
  in.opt("aer_correctable", p.aer_correctable);
  in.opt("aer_nonfatal", p.aer_nonfatal);
  in.opt("aer_fatal", p.aer_fatal);
  p.driver =
      read_observed<std::string>(in.at("driver"), in.path("driver"), read_plain<std::string>);
  in.opt("bar1_bytes", p.bar1_bytes);
  in.opt("iommu_group_type", p.iommu_group_type);
  p.upstream = strict_list<Bridge>(in.at("upstream"), in.path("upstream"), bridge_from_json);
  in.finish();
  return p;
}

json info_to_json(const GpuInformation& g) {
  return {{"bdf", g.bdf},
          {"model", g.model},
          {"device_minor", optional_json(g.device_minor)},
          {"gsp_firmware", optional_json(g.gsp_firmware)}};
}

GpuInformation info_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  GpuInformation g;
  in.get("bdf", g.bdf);
  in.get("model", g.model);
  in.opt("device_minor", g.device_minor);
  in.opt("gsp_firmware", g.gsp_firmware);
  in.finish();
  return g;
}

json node_to_json(const DeviceNode& n) {
  return {{"path", n.path},
          {"type", n.type},
          {"major", optional_json(n.major)},
          {"minor", optional_json(n.minor)},
          {"open_rdwr", n.open_rdwr ? json(to_string(*n.open_rdwr)) : json(nullptr)}};
}

DeviceNode node_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  DeviceNode n;
  in.get("path", n.path);
  in.get("type", n.type);
  in.opt("major", n.major);
  in.opt("minor", n.minor);
  std::optional<std::string> open_rdwr;
  in.opt("open_rdwr", open_rdwr);
  if (open_rdwr) n.open_rdwr = open_result_named(*open_rdwr);
  in.finish();
  return n;
}

template <class T, class Fn>
json list_to_json(const std::vector<T>& v, Fn fn) {
  json a = json::array();
  for (const auto& x : v) a.push_back(fn(x));
  return a;
}

json kernel_to_json(const KernelFacts& k) {
  return {{"modules", write_observed(k.modules, plain<std::vector<std::string>>)},
          {"sys_module_nvidia", write_observed(k.sys_module_nvidia, plain<bool>)},
          {"nvidia_version_text", write_observed(k.nvidia_version_text, plain<std::string>)},
          {"module_version", write_observed(k.module_version, plain<std::string>)},
          {"params", write_observed(k.params, plain<std::map<std::string, std::string>>)},
          {"uvm_disable_hmm", write_observed(k.uvm_disable_hmm, plain<std::string>)},
          {"char_majors", write_observed(k.char_majors, plain<std::map<std::string, int>>)},
          {"cmdline", write_observed(k.cmdline, plain<std::string>)},
          {"release", write_observed(k.release, plain<std::string>)},
          {"module_files", write_observed(k.module_files, plain<std::vector<std::string>>)},
          {"log_lines", write_observed(k.log_lines, plain<std::vector<std::string>>)},
          {"log_source", k.log_source}};
}

KernelFacts kernel_from_json(const json& j, const std::string& where) {
  using Strings = std::vector<std::string>;
  using StringMap = std::map<std::string, std::string>;
  using IntMap = std::map<std::string, int>;
  StrictReader in(j, where);
  KernelFacts k;
  k.modules = read_observed<Strings>(in.at("modules"), in.path("modules"), read_plain<Strings>);
  k.sys_module_nvidia = read_observed<bool>(in.at("sys_module_nvidia"),
                                            in.path("sys_module_nvidia"), read_plain<bool>);
  k.nvidia_version_text = read_observed<std::string>(
      in.at("nvidia_version_text"), in.path("nvidia_version_text"), read_plain<std::string>);
  k.module_version = read_observed<std::string>(in.at("module_version"), in.path("module_version"),
                                                read_plain<std::string>);
  k.params = read_observed<StringMap>(in.at("params"), in.path("params"), read_plain<StringMap>);
  k.uvm_disable_hmm = read_observed<std::string>(
      in.at("uvm_disable_hmm"), in.path("uvm_disable_hmm"), read_plain<std::string>);
  k.char_majors =
      read_observed<IntMap>(in.at("char_majors"), in.path("char_majors"), read_plain<IntMap>);
  k.cmdline =
      read_observed<std::string>(in.at("cmdline"), in.path("cmdline"), read_plain<std::string>);
  // Added to version 1 later: a document without it did not look.
  if (const json* release = in.find("release"))
    k.release = read_observed<std::string>(*release, in.path("release"), read_plain<std::string>);
  if (const json* files = in.find("module_files"))
    k.module_files = read_observed<Strings>(*files, in.path("module_files"), read_plain<Strings>);
  k.log_lines = read_log_lines(in.at("log_lines"), in.path("log_lines"));
  in.get("log_source", k.log_source);
  in.finish();
  return k;
}

}  // namespace

const char* to_string(Seen s) {
  switch (s) {
    case Seen::kNotChecked: return "not_checked";
    case Seen::kPresent: return "present";
    case Seen::kAbsent: return "absent";
    case Seen::kUnreadable: return "unreadable";
  }
  return "not_checked";
}

Seen seen_from_string(const std::string& s, const std::string& where) {
  for (Seen v : {Seen::kNotChecked, Seen::kPresent, Seen::kAbsent, Seen::kUnreadable})
    if (s == to_string(v)) return v;
  throw InputError(where + ": unknown state '" + s +
                   "' (expected present, absent, unreadable or not_checked)");
}

json facts_to_json(const Facts& f) {
  using Strings = std::vector<std::string>;
  json env = f.environment;
  json out = {
      {"schema", kSchema},
      {"version", Facts::kVersion},
      {"source", f.source},
      {"note", f.note},
      {"built_cuda_runtime_version", optional_json(f.built_cuda_runtime_version)},
      {"environment", env},
      {"kernel", kernel_to_json(f.kernel)},
      {"firmware",
       {{"versions", write_observed(f.firmware.versions, plain<Strings>)},
        {"gsp_files", write_observed(f.firmware.gsp_files, plain<Strings>)}}},
      {"pci",
       write_observed(
           f.pci, [](const std::vector<PciFunction>& v) { return list_to_json(v, pci_to_json); })},
      {"gpu_information", write_observed(f.gpu_information,
                                         [](const std::vector<GpuInformation>& v) {
                                           return list_to_json(v, info_to_json);
                                         })},
      {"device_nodes", write_observed(f.device_nodes,
                                      [](const std::vector<DeviceNode>& v) {
                                        return list_to_json(v, node_to_json);
                                      })},
      {"cgroup",
       {{"hierarchy", optional_json(f.cgroup.hierarchy)},
        {"v2_path", optional_json(f.cgroup.v2_path)},
        {"v1_devices_path", optional_json(f.cgroup.v1_devices_path)},
        {"devices_list", write_observed(f.cgroup.devices_list, plain<std::string>)},
        {"devices_list_path", optional_json(f.cgroup.devices_list_path)}}},
      {"iommu",
       {{"units", write_observed(f.iommu.units, plain<Strings>)},
        {"group_types", write_observed(f.iommu.group_types, plain<std::map<std::string, int>>)}}},
      {"daemons", write_observed(f.daemons, plain<Strings>)},
      {"env", f.env},
      {"cuda", cuda_to_json(f.cuda)},
      {"nvml", nvml_to_json(f.nvml)},
      {"fabric_manager",
       {{"log_path", f.fabric_manager.log_path},
        {"log_lines", write_observed(f.fabric_manager.log_lines, plain<Strings>)}}},
      {"peer_copy", peer_copy_to_json(f.peer_copy)}};
  // Added within version 1, written where it was looked at: older facts read back unchanged.
  if (f.vfio.checked()) out["vfio"] = vfio_to_json(f.vfio);
  if (f.nccl_topo_file.checked()) out["nccl_topo_file"] = nccl_topo_file_to_json(f.nccl_topo_file);
  return out;
}

Facts facts_from_json(const json& j) {
  using Strings = std::vector<std::string>;
  StrictReader in(j, "");
  const std::string schema = in.get<std::string>("schema");
  if (schema != kSchema)
    throw InputError("not a doctor facts file (schema '" + schema + "', expected '" + kSchema +
                     "')");
  const int version = in.get<int>("version");
  if (version != Facts::kVersion)
    throw InputError("facts version " + std::to_string(version) +
                     " is not supported (this p2pcheck reads version " +
                     std::to_string(Facts::kVersion) + ")");
  Facts f;
  in.get("source", f.source);
  in.get("note", f.note);
  in.opt("built_cuda_runtime_version", f.built_cuda_runtime_version);
  f.environment = topo::environment_facts_from_json(in.at("environment"), "environment");
  f.kernel = kernel_from_json(in.at("kernel"), "kernel");
  {
    StrictReader fw(in.at("firmware"), "firmware");
    f.firmware.versions =
        read_observed<Strings>(fw.at("versions"), fw.path("versions"), read_plain<Strings>);
    f.firmware.gsp_files =
        read_observed<Strings>(fw.at("gsp_files"), fw.path("gsp_files"), read_plain<Strings>);
    fw.finish();
  }
  f.pci = read_observed<std::vector<PciFunction>>(
      in.at("pci"), "pci", [](const json& v, const std::string& w) {
        return strict_list<PciFunction>(v, w, pci_from_json);
      });
  f.gpu_information = read_observed<std::vector<GpuInformation>>(
      in.at("gpu_information"), "gpu_information", [](const json& v, const std::string& w) {
        return strict_list<GpuInformation>(v, w, info_from_json);
      });
  f.device_nodes = read_observed<std::vector<DeviceNode>>(
      in.at("device_nodes"), "device_nodes", [](const json& v, const std::string& w) {
        return strict_list<DeviceNode>(v, w, node_from_json);
      });
  {
    StrictReader cg(in.at("cgroup"), "cgroup");
    cg.opt("hierarchy", f.cgroup.hierarchy);
    cg.opt("v2_path", f.cgroup.v2_path);
    cg.opt("v1_devices_path", f.cgroup.v1_devices_path);
    f.cgroup.devices_list = read_observed<std::string>(
        cg.at("devices_list"), cg.path("devices_list"), read_plain<std::string>);
    cg.opt_later("devices_list_path", f.cgroup.devices_list_path);
    cg.finish();
  }
  {
    using IntMap = std::map<std::string, int>;
    StrictReader io(in.at("iommu"), "iommu");
    f.iommu.units = read_observed<Strings>(io.at("units"), io.path("units"), read_plain<Strings>);
    f.iommu.group_types =
        read_observed<IntMap>(io.at("group_types"), io.path("group_types"), read_plain<IntMap>);
    io.finish();
  }
  f.daemons = read_observed<Strings>(in.at("daemons"), "daemons", read_plain<Strings>);
  f.env = in.get<std::map<std::string, std::string>>("env");
  f.cuda = cuda_from_json(in.at("cuda"), "cuda");
  f.nvml = nvml_from_json(in.at("nvml"), "nvml");
  // Added to version 1 later: a document without them knows nothing about them.
  if (const json* fm = in.find("fabric_manager")) {
    StrictReader r(*fm, "fabric_manager");
    r.get("log_path", f.fabric_manager.log_path);
    f.fabric_manager.log_lines = read_log_lines(r.at("log_lines"), r.path("log_lines"));
    r.finish();
  }
  if (const json* pc = in.find("peer_copy")) {
    f.peer_copy = peer_copy_from_json(*pc, "peer_copy");
  } else {
    f.peer_copy.detail = "not in these facts: recorded before the peer-copy check existed";
  }
  if (const json* vfio = in.find("vfio")) f.vfio = vfio_from_json(*vfio, "vfio");
  if (const json* t = in.find("nccl_topo_file"))
    f.nccl_topo_file = nccl_topo_file_from_json(*t, "nccl_topo_file");
  in.finish();
  return f;
}

Facts load_facts_file(const std::string& path) {
  return load_json_file(path, facts_from_json);  // "PATH: <key path>: <problem>"
}

}  // namespace p2p::doctor
