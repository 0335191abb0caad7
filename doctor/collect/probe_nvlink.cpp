// The NVLink probe: for each GPU, the far end of every active NVLink, from NVML in a forked
// child (a wedged driver cannot hang `topo`). Used by live topology discovery; the counting is
// nvlink_counts_from_remotes().
#include <nlohmann/json.hpp>

#include "common/dynamic_library.hpp"
#include "common/file_io.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/collect/isolated.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/derived.hpp"

namespace p2p::doctor {

namespace {

using namespace api;
using nvmlDeviceGetHandleByPciBusId_t = nvmlReturn_t (*)(const char* bus_id, nvmlDevice_t* device);
using nvmlDeviceGetNvLinkState_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int link,
                                                    int* is_active);
using nvmlDeviceGetNvLinkRemotePciInfo_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int link,
                                                            nvmlPciInfo_v3* pci);

constexpr unsigned kMaxNvLinks = 18;  // NVML_NVLINK_MAX_LINKS since NVLink 4

// NVML wants the 8-digit domain it prints itself.
std::string nvml_bus_id(const std::string& bdf) {
  const std::string b = normalize_bdf(bdf);
  return "0000" + b;
}

void nvlink_child(const std::vector<std::string>& bus_ids, const Emit& emit) {
  const DynamicLibrary& lib = DynamicLibrary::open_never_closed("libnvidia-ml.so.1");
  auto init = lib.function<nvmlInit_t>("nvmlInit_v2");
  const auto by_bus =
      lib.function<nvmlDeviceGetHandleByPciBusId_t>("nvmlDeviceGetHandleByPciBusId_v2");
  const auto state = lib.function<nvmlDeviceGetNvLinkState_t>("nvmlDeviceGetNvLinkState");
  auto remote =
      lib.function<nvmlDeviceGetNvLinkRemotePciInfo_t>("nvmlDeviceGetNvLinkRemotePciInfo_v2");
  if (!lib.loaded() || init == nullptr || by_bus == nullptr || state == nullptr ||
      remote == nullptr)
    return;
  if (init() != 0) return;
  nlohmann::json remotes = nlohmann::json::array();
  for (const auto& id : bus_ids) {
    nlohmann::json far = nlohmann::json::array();
    nvmlDevice_t h = nullptr;
    if (by_bus(nvml_bus_id(id).c_str(), &h) == 0) {
      for (unsigned link = 0; link < kMaxNvLinks; ++link) {
        int active = 0;
        // NOT_SUPPORTED on GPUs without NVLink, INVALID_ARGUMENT past the last link: both end the
        // list.
        if (state(h, link, &active) != 0) break;
        PciInfoBuffer pci{};
        if (active == 1 && remote(h, link, &pci.info) == 0) {
          pci.info.busId[sizeof pci.info.busId - 1] = '\0';
          far.push_back(normalize_bdf(pci.info.busId));
        }
      }
    }
    remotes.push_back(far);
  }
  emit(nlohmann::json{{"remotes", remotes}}.dump());
}

}  // namespace

std::optional<std::vector<std::vector<std::string>>> probe_nvlink_remotes(
    const std::vector<std::string>& bus_ids, int timeout_ms) {
  const IsolatedResult r =
      run_isolated([&bus_ids](const Emit& emit) { nvlink_child(bus_ids, emit); }, timeout_ms);
  if (r.status != IsolatedStatus::kCompleted || r.output.empty()) return std::nullopt;
  try {
    return parse_own_json(r.output, "NVLink probe output")
        .at("remotes")
        .get<std::vector<std::vector<std::string>>>();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace p2p::doctor
