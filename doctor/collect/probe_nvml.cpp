// The NVML probe and the device-node open probe, each in a forked child.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "common/dynamic_library.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/collect/nvml_calls.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/derived.hpp"
#include "doctor/facts_json_parts.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor {

namespace {

using namespace api;

using Nvml = NvmlCalls;

void probe_nvml_device(const Nvml& nv, nvmlDevice_t h, NvmlDevice& d) {
  PciInfoBuffer pci{};
  auto pci_fn = nv.fn<nvmlDeviceGetPciInfo_t>("nvmlDeviceGetPciInfo_v3");
  if (pci_fn == nullptr) pci_fn = nv.fn<nvmlDeviceGetPciInfo_t>("nvmlDeviceGetPciInfo_v2");
  if (pci_fn != nullptr && pci_fn(h, &pci.info) == 0) {
    pci.info.busId[sizeof pci.info.busId - 1] = '\0';
    d.pci_bus_id = normalize_bdf(pci.info.busId);
  }
  char name[128] = {};
  if (const auto f = nv.fn<nvmlDeviceGetName_t>("nvmlDeviceGetName");
      f != nullptr && f(h, name, sizeof name - 1) == 0)
    d.name = name;
  d.architecture = nv.get_uint("nvmlDeviceGetArchitecture", h);
  d.virtualization_mode = nv.get_uint("nvmlDeviceGetVirtualizationMode", h);
  d.pcie_gen_current = nv.get_uint("nvmlDeviceGetCurrPcieLinkGeneration", h);
  d.pcie_gen_max = nv.get_uint("nvmlDeviceGetMaxPcieLinkGeneration", h);
  d.pcie_width_current = nv.get_uint("nvmlDeviceGetCurrPcieLinkWidth", h);
  d.pcie_width_max = nv.get_uint("nvmlDeviceGetMaxPcieLinkWidth", h);
  d.persistence_mode = nv.get_uint("nvmlDeviceGetPersistenceMode", h);
  d.compute_mode = nv.get_uint("nvmlDeviceGetComputeMode", h);
  Bar1Buffer bar1{};
  if (const auto f = nv.fn<nvmlDeviceGetBAR1MemoryInfo_t>("nvmlDeviceGetBAR1MemoryInfo");
      f != nullptr && f(h, &bar1.info) == 0)
    d.bar1_total_bytes = bar1.info.bar1Total;
  unsigned int enabled = 0, default_mode = 0;
  if (const auto f = nv.fn<nvmlDeviceGetGspFirmwareMode_t>("nvmlDeviceGetGspFirmwareMode");
      f != nullptr && f(h, &enabled, &default_mode) == 0)
    d.gsp_firmware_enabled = enabled != 0;
  char gsp[128] = {};  // NVML writes at most 64 bytes
  if (const auto f = nv.fn<nvmlDeviceGetGspFirmwareVersion_t>("nvmlDeviceGetGspFirmwareVersion");
      f != nullptr && f(h, gsp) == 0) {
    gsp[sizeof gsp - 1] = '\0';
    if (gsp[0] != '\0') d.gsp_firmware_version = gsp;
  }
  // NVML_DEVICE_UUID_V2_BUFFER_SIZE is 96; CUDA_VISIBLE_DEVICES may name a GPU by (a prefix of)
  // this.
  char uuid[128] = {};
  if (const auto f = nv.fn<nvmlDeviceGetName_t>("nvmlDeviceGetUUID");
      f != nullptr && f(h, uuid, 96) == 0) {
    uuid[sizeof uuid - 1] = '\0';
    if (uuid[0] != '\0') d.uuid = uuid;
  }
  FabricBuffer fabric{};
  if (const auto f = nv.fn<nvmlDeviceGetGpuFabricInfo_t>("nvmlDeviceGetGpuFabricInfo");
      f != nullptr && f(h, &fabric.info) == 0) {
    d.fabric_state = fabric.info.state;
    d.fabric_status = fabric.info.status;
  }
}

// Every device by index, the probe emitted before each one so that a hang names the device.
std::vector<nvmlDevice_t> probe_devices(const Nvml& nv, nvmlDeviceGetHandleByIndex_t handle_fn,
                                        unsigned int count, NvmlProbe& p, const Emit& emit) {
  std::vector<nvmlDevice_t> handles;
  for (unsigned int i = 0; i < count; ++i) {
    p.detail = "stopped while probing NVML device " + std::to_string(i);
    emit(json_text(nvml_to_json(p), -1));
    nvmlDevice_t h = nullptr;
    NvmlDevice d;
    d.index = static_cast<int>(i);
    d.health = NvmlHealth{};
    if (const int rc = handle_fn(i, &h); rc == 0) {
      probe_nvml_device(nv, h, d);
      probe_nvml_health(nv, h, *d.health);
    } else {
      // A GPU that fell off the bus answers NVML_ERROR_GPU_IS_LOST here: that is the fact.
      d.health->query_errors["nvmlDeviceGetHandleByIndex"] = rc;
      h = nullptr;
    }
    handles.push_back(h);
    p.devices.push_back(d);
  }
  return handles;
}

void probe_pairs(const Nvml& nv, const std::vector<nvmlDevice_t>& handles, NvmlProbe& p) {
  const auto p2p = nv.fn<nvmlDeviceGetP2PStatus_t>("nvmlDeviceGetP2PStatus");
  const auto ancestor =
      nv.fn<nvmlDeviceGetTopologyCommonAncestor_t>("nvmlDeviceGetTopologyCommonAncestor");
  for (std::size_t a = 0; a < handles.size(); ++a) {
    for (std::size_t b = a + 1; b < handles.size(); ++b) {
      if (handles[a] == nullptr || handles[b] == nullptr) continue;
      NvmlPair pair;
      pair.a = static_cast<int>(a);
      pair.b = static_cast<int>(b);
      int s = 0;
      if (p2p != nullptr && p2p(handles[a], handles[b], kNvmlP2pRead, &s) == 0) pair.read = s;
      if (p2p != nullptr && p2p(handles[a], handles[b], kNvmlP2pWrite, &s) == 0) pair.write = s;
      if (p2p != nullptr && p2p(handles[a], handles[b], kNvmlP2pNvlink, &s) == 0) pair.nvlink = s;
      if (ancestor != nullptr && ancestor(handles[a], handles[b], &s) == 0)
        pair.common_ancestor = s;
      p.pairs.push_back(pair);
    }
  }
}

void nvml_child(const std::string& soname, const Emit& emit) {
  NvmlProbe p;
  p.status = ProbeStatus::kCompleted;
  // No nvmlShutdown either, for the reason the library is never closed.
  const DynamicLibrary& lib = DynamicLibrary::open_never_closed(soname);
  if (!lib.loaded()) {
    p.status = ProbeStatus::kLibraryMissing;
    p.detail = lib.error();
    emit(json_text(nvml_to_json(p), -1));
    return;
  }
  const Nvml nv(lib);
  const std::string path = lib.resolved_path("nvmlInit_v2");
  if (!path.empty()) p.library_path = path;
  auto init = nv.fn<nvmlInit_t>("nvmlInit_v2");
  if (init == nullptr) init = nv.fn<nvmlInit_t>("nvmlInit");
  if (init == nullptr) {
    p.status = ProbeStatus::kFailed;
    p.detail = soname + " has no nvmlInit";
    emit(json_text(nvml_to_json(p), -1));
    return;
  }
  p.detail = "stopped inside nvmlInit";
  emit(json_text(nvml_to_json(p), -1));
  p.init_result = init();
  p.detail.clear();
  emit(json_text(nvml_to_json(p), -1));
  if (*p.init_result != 0) return;
  char version[96] = {};
  if (const auto f = nv.fn<nvmlSystemGetDriverVersion_t>("nvmlSystemGetDriverVersion");
      f != nullptr && f(version, sizeof version - 1) == 0)
    p.driver_version = version;
  int cuda_version = 0;
  if (const auto f = nv.fn<nvmlSystemGetCudaDriverVersion_t>("nvmlSystemGetCudaDriverVersion_v2");
      f != nullptr && f(&cuda_version) == 0)
    p.cuda_driver_version = cuda_version;
  unsigned int count = 0;
  auto count_fn = nv.fn<nvmlDeviceGetCount_t>("nvmlDeviceGetCount_v2");
  const auto handle_fn = nv.fn<nvmlDeviceGetHandleByIndex_t>("nvmlDeviceGetHandleByIndex_v2");
  if (count_fn == nullptr || handle_fn == nullptr || count_fn(&count) != 0) {
    emit(json_text(nvml_to_json(p), -1));
    return;
  }
  p.device_count = static_cast<int>(count);
  probe_pairs(nv, probe_devices(nv, handle_fn, count, p, emit), p);
  p.detail.clear();
  emit(json_text(nvml_to_json(p), -1));
}

}  // namespace

NvmlProbe nvml_probe_from(const IsolatedResult& r) {
  return probe_from_isolated<NvmlProbe>(r, [](const std::string& line) {
    return nvml_from_json(parse_own_json(line, "NVML probe output"), "nvml");
  });
}

NvmlProbe probe_nvml(int timeout_ms, const std::string& soname) {
  return nvml_probe_from(
      run_isolated([&soname](const Emit& emit) { nvml_child(soname, emit); }, timeout_ms));
}

std::map<std::string, OpenResult> probe_opens(const std::vector<std::string>& paths,
                                              int timeout_ms) {
  const auto r = run_isolated(
      [&paths](const Emit& emit) {
        nlohmann::json results = nlohmann::json::object();
        for (const auto& path : paths) {
          const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
          results[path] =
              to_string(fd >= 0 ? OpenResult::ok() : OpenResult::failed(errno_name(errno)));
          if (fd >= 0) ::close(fd);
          emit(json_text(results, -1));
        }
      },
      timeout_ms);
  std::map<std::string, OpenResult> out;
  if (!r.output.empty()) {
    try {
      for (const auto& [path, word] : parse_own_json(r.output, "device node probe output")
                                          .get<std::map<std::string, std::string>>())
        out[path] = open_result_named(word);
    } catch (const std::exception&) {
      out.clear();
    }
  }
  // A node whose open never returned is reported as such, not skipped.
  for (const auto& path : paths)
    if (out.count(path) == 0)
      out[path] = OpenResult::failed(r.status == IsolatedStatus::kCompleted
                                         ? std::string("no result")
                                         : std::string("open ") + to_string(r.status));
  return out;
}

}  // namespace p2p::doctor
