// Who else is on the GPUs we are about to measure: NVML's compute and graphics process lists and
// the GPU utilisation, asked in a forked child (NVML can hang like the rest of the driver).
#include "common/dynamic_library.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/collect/probes.hpp"

namespace p2p::doctor {

namespace {

using namespace api;

using NvmlProcessInfo = nvmlProcessInfo;
using NvmlUtilization = nvmlUtilization;
using nvmlDeviceGetHandleByPciBusId_t = nvmlReturn_t (*)(const char* bus_id, nvmlDevice_t* device);
using nvmlDeviceGetProcesses_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* count,
                                                  NvmlProcessInfo* infos);
using nvmlDeviceGetUtilizationRates_t = nvmlReturn_t (*)(nvmlDevice_t device,
                                                         NvmlUtilization* utilization);

template <class Fn>
Fn newest(const DynamicLibrary& lib, const char* v3, const char* v2) {
  const Fn f = lib.function<Fn>(v3);
  return f != nullptr ? f : lib.function<Fn>(v2);
}

void list_processes(nvmlDeviceGetProcesses_t fn, nvmlDevice_t h, const char* kind,
                    doc::GpuActivity& g) {
  if (fn == nullptr) return;
  std::vector<NvmlProcessInfo> infos(kNvmlMaxProcesses);
  unsigned int count = kNvmlMaxProcesses;
  if (fn(h, &count, infos.data()) != 0)
    return;  // INSUFFICIENT_SIZE past 256 processes: not worth a retry
  for (unsigned int i = 0; i < count && i < kNvmlMaxProcesses; ++i) {
    doc::GpuProcess p;
    p.pid = infos[i].pid;
    p.kind = kind;
    if (infos[i].usedGpuMemory != kNvmlNotAvailable) p.used_bytes = infos[i].usedGpuMemory;
    g.processes.push_back(p);
  }
}

void activity_child(const std::vector<std::string>& bus_ids, const std::string& soname,
                    const Emit& emit) {
  const DynamicLibrary& lib = DynamicLibrary::open_never_closed(soname);
  if (!lib.loaded()) return;
  auto init = lib.function<nvmlInit_t>("nvmlInit_v2");
  if (init == nullptr) init = lib.function<nvmlInit_t>("nvmlInit");
  const auto by_bus =
      lib.function<nvmlDeviceGetHandleByPciBusId_t>("nvmlDeviceGetHandleByPciBusId_v2");
  if (init == nullptr || by_bus == nullptr || init() != 0) return;
  const auto compute = newest<nvmlDeviceGetProcesses_t>(
      lib, "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2");
  const auto graphics = newest<nvmlDeviceGetProcesses_t>(
      lib, "nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2");
  const auto utilization =
      lib.function<nvmlDeviceGetUtilizationRates_t>("nvmlDeviceGetUtilizationRates");
  nlohmann::json out = nlohmann::json::array();
  for (const auto& bus : bus_ids) {
    doc::GpuActivity g;
    g.pci_bus_id = bus;
    nvmlDevice_t h = nullptr;
    if (by_bus(bus.c_str(), &h) == 0) {
      g.nvml = true;
      list_processes(compute, h, "compute", g);
      list_processes(graphics, h, "graphics", g);
      NvmlUtilization u{};
      if (utilization != nullptr && utilization(h, &u) == 0)
        g.utilization_percent = static_cast<int>(u.gpu);
    }
    out.push_back(g);
  }
  emit(json_text(out, -1));
}

}  // namespace

std::optional<std::vector<doc::GpuActivity>> probe_gpu_activity(
    const std::vector<std::string>& bus_ids, int timeout_ms, const std::string& soname) {
  const IsolatedResult r =
      run_isolated([&](const Emit& emit) { activity_child(bus_ids, soname, emit); }, timeout_ms);
  if (r.status != IsolatedStatus::kCompleted || r.output.empty()) return std::nullopt;
  try {
    return parse_own_json(r.output, "GPU activity probe output")
        .get<std::vector<doc::GpuActivity>>();
  } catch (const std::exception&) {
    return std::nullopt;  // a child that wrote nonsense answered nothing
  }
}

}  // namespace p2p::doctor
