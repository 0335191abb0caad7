// Live probes of the driver, each in its own forked child (isolated.hpp). Only the live
// collector calls these, and only when the root is "/".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/isolated.hpp"

namespace p2p::doctor {

// libcuda.so.1: real path, cuDriverGetVersion, cuInit, devices (name, bus id, compute
// capability), and per device a primary context and a 1 MiB allocation.
// `soname` is for tests, which load a stand-in library; the doctor always uses the default.
CudaProbe probe_cuda(int timeout_ms, const std::string& soname = "libcuda.so.1");

// libnvidia-ml.so.1: init, versions, per device identity/link/BAR1/modes/GSP/fabric, and the
// P2P status of every pair.
NvmlProbe probe_nvml(int timeout_ms, const std::string& soname = "libnvidia-ml.so.1");

// For each GPU (by PCI bus id), the bus id at the far end of every active NVLink; nullopt where
// NVML is missing, fails, or the GPUs have no NVLink query (see nvlink_links.hpp for counting).
std::optional<std::vector<std::vector<std::string>>> probe_nvlink_remotes(const std::vector<std::string>& bus_ids,
                                                                          int timeout_ms);

// open(O_RDWR) of each path in a child: path -> "ok" or the errno name ("EPERM").
std::map<std::string, std::string> probe_opens(const std::vector<std::string>& paths, int timeout_ms);

// Turns a child's outcome into the probe record: the last snapshot it emitted, with the status
// replaced when the child crashed or hung. Exposed for tests.
CudaProbe cuda_probe_from(const IsolatedResult& r);
NvmlProbe nvml_probe_from(const IsolatedResult& r);

}  // namespace p2p::doctor
