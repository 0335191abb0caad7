// Live probes of the driver, each in its own forked child (isolated.hpp). The live collector
// calls these (only when the root is "/"), and bench and nccl call probe_cuda_init first.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/collect/isolated.hpp"
#include "doctor/facts.hpp"
#include "document/gpu_sharing.hpp"

namespace p2p::doctor {

// libcuda.so.1: real path, cuDriverGetVersion, cuInit, devices (name, bus id, compute
// capability), and per device a primary context and a 1 MiB allocation.
// `soname` is for tests, which load a stand-in library; the doctor always uses the default.
CudaProbe probe_cuda(int timeout_ms, const std::string& soname = "libcuda.so.1");
// The same child, stopped after cuInit and cuDeviceGetCount: what bench and nccl run before
// their own process touches the driver (preflight.hpp judges it).
CudaProbe probe_cuda_init(int timeout_ms, const std::string& soname = "libcuda.so.1");

// libnvidia-ml.so.1: init, versions, per device identity/link/BAR1/modes/GSP/fabric, and the
// P2P status of every pair.
NvmlProbe probe_nvml(int timeout_ms, const std::string& soname = "libnvidia-ml.so.1");

// For each GPU (by PCI bus id), the bus id at the far end of every active NVLink; nullopt where
// NVML is missing, fails, or the GPUs have no NVLink query (see nvlink_links.hpp for counting).
std::optional<std::vector<std::vector<std::string>>> probe_nvlink_remotes(
    const std::vector<std::string>& bus_ids, int timeout_ms);

// Copies a patterned buffer between every ordered pair of GPUs with peer access, once with
// cuMemcpyPeer (a copy engine) and once with a kernel on the source storing into the peer's
// memory, and counts on the destination GPU the words that did not arrive. With one GPU (or
// `logical_gpus` placed round-robin on fewer GPUs) the pairs share a device, so the same calls
// run against the GPU itself. Test hook: P2P_DOCTOR_PEER_COPY_FAULT=corrupt overwrites part of
// each destination before it is checked, so the whole path to a failed check can run on a
// healthy GPU.
PeerCopyProbe probe_peer_copy(int timeout_ms, int logical_gpus = 0,
                              const std::string& soname = "libcuda.so.1");
PeerCopyProbe peer_copy_probe_from(const IsolatedResult& r);

// NVML's compute and graphics processes and the utilisation of each GPU (by PCI bus id), for
// the sharing check of bench and nccl (document/gpu_sharing.hpp); names are left for the caller.
// nullopt where NVML is missing, fails to initialise, hangs or crashes.
std::optional<std::vector<doc::GpuActivity>> probe_gpu_activity(
    const std::vector<std::string>& bus_ids, int timeout_ms,
    const std::string& soname = "libnvidia-ml.so.1");

// open(O_RDWR) of each path in a child: path -> opened, or the errno name ("EPERM").
std::map<std::string, OpenResult> probe_opens(const std::vector<std::string>& paths,
                                              int timeout_ms);

// Turns a child's outcome into the probe record: the last snapshot it emitted, with the status
// replaced when the child crashed or hung. Exposed for tests.
CudaProbe cuda_probe_from(const IsolatedResult& r);
NvmlProbe nvml_probe_from(const IsolatedResult& r);

}  // namespace p2p::doctor
