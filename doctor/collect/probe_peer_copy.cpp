// The peer-copy probe. "Peer access: yes" is a promise; this checks that data written by one GPU
// into another's memory arrives there. It runs in a child (fork without exec) with the driver API
// loaded at run time, like the CUDA probe, so the doctor still starts without any NVIDIA library
// and a copy that hangs or crashes the driver cannot take the doctor down.
//
// The copy and check of each pair is peer_copy_check.cpp's.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/dynamic_library.hpp"
#include "common/json_text.hpp"
#include "doctor/collect/driver_api.hpp"
#include "doctor/collect/peer_copy_check.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/derived.hpp"
#include "doctor/facts_json_parts.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor {

namespace {

using namespace api;
using peer_copy::Api;
using peer_copy::call;
using peer_copy::CallFailed;
using peer_copy::Gpu;

void emit_snapshot(const Emit& emit, const PeerCopyProbe& p) {
  emit(json_text(peer_copy_to_json(p), -1));
}

// cuInit and cuDeviceGetCount through `lib`: the number of devices CUDA sees, or 0 where the probe
// ends here (then `p` says why).
int count_devices(const DynamicLibrary& lib, const std::string& soname, const Api& api,
                  PeerCopyProbe& p) {
  const auto init = lib.function<cuInit_t>("cuInit");
  const auto count = lib.function<cuDeviceGetCount_t>("cuDeviceGetCount");
  if (init == nullptr || count == nullptr || api.missing() != nullptr) {
    p.status = ProbeStatus::kFailed;
    p.detail = soname + " has no " +
               (init == nullptr    ? "cuInit"
                : count == nullptr ? "cuDeviceGetCount"
                                   : api.missing());
    return 0;
  }
  int n = 0;
  if (const CUresult r = init(0); r != 0) {
    p.status = ProbeStatus::kFailed;
    p.detail = "cuInit = " + std::to_string(r) + " " + cu_result_name(r);
    return 0;
  }
  if (count(&n) != 0 || n == 0) {
    p.detail = "CUDA sees no device";
    return 0;
  }
  return n;
}

// Places the logical GPUs of `all` round-robin on the `n` devices and prepares each, with a
// snapshot before each so that a hang names its GPU; false where a call failed (`p` says which).
bool prepare_gpus(const Api& api, int n, std::vector<Gpu>& all, PeerCopyProbe& p,
                  const Emit& emit) {
  try {
    const int gpus = static_cast<int>(all.size());
    for (int i = 0; i < gpus; ++i) {
      Gpu& g = all[static_cast<std::size_t>(i)];
      g.device_ordinal = i % n;  // round-robin, as bench --logical-gpus places them
      p.detail = "stopped while preparing GPU " + std::to_string(i);
      emit_snapshot(emit, p);
      call(api.device_get(&g.device, g.device_ordinal), "cuDeviceGet");
      char id[64] = {};
      if (api.bus_id != nullptr && api.bus_id(id, sizeof id - 1, g.device) == 0)
        g.bus_id = normalize_bdf(id);
      // Logical GPUs on one device share its primary context; a context per logical GPU would
      // not change which calls run, only add their cost.
      peer_copy::prepare(api, g);
    }
  } catch (const CallFailed& e) {
    p.status = ProbeStatus::kFailed;
    p.detail = e.what();
    return false;
  }
  return true;
}

// The ordered pairs to check: every source with every other destination, or one GPU with itself.
std::vector<std::pair<int, int>> pair_order(int gpus) {
  std::vector<std::pair<int, int>> order;
  if (gpus == 1) order.emplace_back(0, 0);
  for (int s = 0; s < gpus; ++s)
    for (int d = 0; d < gpus; ++d)
      if (s != d) order.emplace_back(s, d);
  return order;
}

// Checks each pair in order into `p.pairs`, with a snapshot before each so that a hang names its
// pair; a failed call ends that pair only.
void check_pairs(const Api& api, const std::vector<Gpu>& all, PeerCopyProbe& p, const Emit& emit) {
  for (const auto& [s, d] : pair_order(static_cast<int>(all.size()))) {
    PeerCopyPair pair;
    pair.src = s;
    pair.dst = d;
    pair.src_bus_id = all[static_cast<std::size_t>(s)].bus_id;
    pair.dst_bus_id = all[static_cast<std::size_t>(d)].bus_id;
    p.detail = "stopped while copying GPU" + std::to_string(s) + " -> GPU" + std::to_string(d);
    p.pairs.push_back(pair);
    emit_snapshot(emit, p);
    try {
      peer_copy::check_pair(api, all[static_cast<std::size_t>(s)], all[static_cast<std::size_t>(d)],
                            p.pairs.back());
    } catch (const CallFailed& e) {
      p.pairs.back().copy_result = CopyResult::kError;
      p.pairs.back().detail = e.what();
    }
  }
}

void peer_copy_child(const std::string& soname, int logical, const Emit& emit) {
  PeerCopyProbe p;
  p.status = ProbeStatus::kCompleted;
  const DynamicLibrary& lib = DynamicLibrary::open_never_closed(soname);
  if (!lib.loaded()) {
    p.status = ProbeStatus::kLibraryMissing;
    p.detail = lib.error();
    emit_snapshot(emit, p);
    return;
  }
  const Api api(lib);
  const int n = count_devices(lib, soname, api, p);
  if (n == 0) {
    emit_snapshot(emit, p);
    return;
  }
  const int gpus = logical > 0 ? logical : n;
  p.mode =
      logical > 0 ? PeerCopyMode::kLogical : (n == 1 ? PeerCopyMode::kSelf : PeerCopyMode::kPairs);
  std::vector<Gpu> all(static_cast<std::size_t>(gpus));
  if (!prepare_gpus(api, n, all, p, emit)) {
    emit_snapshot(emit, p);
    return;
  }
  check_pairs(api, all, p, emit);
  p.detail = p.mode == PeerCopyMode::kSelf ? "one GPU: checked against itself"
             : p.mode == PeerCopyMode::kLogical
                 ? std::to_string(gpus) + " logical GPUs on " + std::to_string(n) + " GPU(s)"
                 : "";
  emit_snapshot(emit, p);
}

}  // namespace

PeerCopyProbe peer_copy_probe_from(const IsolatedResult& r) {
  return probe_from_isolated<PeerCopyProbe>(r, [](const std::string& line) {
    return peer_copy_from_json(parse_own_json(line, "peer-copy probe output"), "peer_copy");
  });
}

PeerCopyProbe probe_peer_copy(int timeout_ms, int logical_gpus, const std::string& soname) {
  return peer_copy_probe_from(run_isolated(
      [&](const Emit& emit) { peer_copy_child(soname, logical_gpus, emit); }, timeout_ms));
}

}  // namespace p2p::doctor
