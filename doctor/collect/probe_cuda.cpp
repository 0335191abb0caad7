// The CUDA driver API probe. Runs in a child (fork without exec), so it must not rely on
// anything the parent initialised: it opens its own libcuda and reports through `emit`.
#include "common/dynamic_library.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/facts_json_parts.hpp"

namespace p2p::doctor {

namespace {

constexpr std::size_t kProbeAllocBytes = 1 << 20;

void emit_snapshot(const Emit& emit, const CudaProbe& p) { emit(json_text(cuda_to_json(p), -1)); }

void probe_device(const DynamicLibrary& lib, int ordinal, CudaDevice& d) {
  using namespace api;
  const auto get = lib.function<cuDeviceGet_t>("cuDeviceGet");
  const auto name = lib.function<cuDeviceGetName_t>("cuDeviceGetName");
  const auto bus = lib.function<cuDeviceGetPCIBusId_t>("cuDeviceGetPCIBusId");
  const auto attr = lib.function<cuDeviceGetAttribute_t>("cuDeviceGetAttribute");
  const auto retain = lib.function<cuDevicePrimaryCtxRetain_t>("cuDevicePrimaryCtxRetain");
  const auto release = lib.function<cuDevicePrimaryCtxRelease_t>("cuDevicePrimaryCtxRelease_v2");
  const auto set_current = lib.function<cuCtxSetCurrent_t>("cuCtxSetCurrent");
  const auto alloc = lib.function<cuMemAlloc_t>("cuMemAlloc_v2");
  const auto free_mem = lib.function<cuMemFree_t>("cuMemFree_v2");
  d.ordinal = ordinal;
  CUdevice dev = 0;
  if (get == nullptr || get(&dev, ordinal) != 0) return;
  char text[256] = {};
  if (name != nullptr && name(text, sizeof text - 1, dev) == 0) d.name = text;
  char id[64] = {};
  if (bus != nullptr && bus(id, sizeof id - 1, dev) == 0) d.pci_bus_id = id;
  int v = 0;
  if (attr != nullptr && attr(&v, kCuAttrComputeCapabilityMajor, dev) == 0) d.cc_major = v;
  if (attr != nullptr && attr(&v, kCuAttrComputeCapabilityMinor, dev) == 0) d.cc_minor = v;
  if (retain == nullptr) return;
  // A context and a small allocation catch what cuInit alone does not: compute mode
  // PROHIBITED/EXCLUSIVE (46) and a GPU whose memory manager did not come up.
  CUcontext ctx = nullptr;
  d.context_result = retain(&ctx, dev);
  if (*d.context_result != 0) return;
  if (set_current != nullptr && alloc != nullptr && set_current(ctx) == 0) {
    CUdeviceptr ptr = 0;
    d.alloc_result = alloc(&ptr, kProbeAllocBytes);
    if (*d.alloc_result == 0 && free_mem != nullptr) free_mem(ptr);
    set_current(nullptr);
  }
  if (release != nullptr) release(dev);
}

// `devices`: also open a context and allocate on each device (the doctor); without it the
// child stops after cuInit and the device count (the preflight of bench and nccl).
void cuda_child(const std::string& soname, bool devices, const Emit& emit) {
  using namespace api;
  CudaProbe p;
  p.status = ProbeStatus::kCompleted;
  const DynamicLibrary& lib = DynamicLibrary::open_never_closed(soname);
  if (!lib.loaded()) {
    p.status = ProbeStatus::kLibraryMissing;
    p.detail = lib.error();
    emit_snapshot(emit, p);
    return;
  }
  const std::string path = lib.resolved_path("cuInit");
  if (!path.empty()) p.library_path = path;
  if (const auto version = lib.function<cuDriverGetVersion_t>("cuDriverGetVersion")) {
    int v = 0;
    if (version(&v) == 0) p.driver_version = v;
  }
  const auto init = lib.function<cuInit_t>("cuInit");
  if (init == nullptr) {
    p.status = ProbeStatus::kFailed;
    p.detail = soname + " has no cuInit";
    emit_snapshot(emit, p);
    return;
  }
  p.detail = "stopped inside cuInit";
  emit_snapshot(emit, p);
  p.init_result = init(0);
  p.detail.clear();
  emit_snapshot(emit, p);
  if (*p.init_result != 0) return;
  const auto count = lib.function<cuDeviceGetCount_t>("cuDeviceGetCount");
  int n = 0;
  if (count == nullptr || count(&n) != 0) return;
  p.device_count = n;
  if (!devices) {
    emit_snapshot(emit, p);
    return;
  }
  for (int i = 0; i < n; ++i) {
    p.detail = "stopped while probing CUDA device " + std::to_string(i);
    p.devices.emplace_back();
    p.devices.back().ordinal = i;
    emit_snapshot(emit, p);
    probe_device(lib, i, p.devices.back());
  }
  p.detail.clear();
  emit_snapshot(emit, p);
}

}  // namespace

CudaProbe cuda_probe_from(const IsolatedResult& r) {
  return probe_from_isolated<CudaProbe>(r, [](const std::string& line) {
    return cuda_from_json(parse_own_json(line, "CUDA probe output"), "cuda");
  });
}

CudaProbe probe_cuda(int timeout_ms, const std::string& soname) {
  return cuda_probe_from(
      run_isolated([&soname](const Emit& emit) { cuda_child(soname, true, emit); }, timeout_ms));
}

CudaProbe probe_cuda_init(int timeout_ms, const std::string& soname) {
  return cuda_probe_from(
      run_isolated([&soname](const Emit& emit) { cuda_child(soname, false, emit); }, timeout_ms));
}

}  // namespace p2p::doctor
