// The gate follows the doctor's GPU health: a GPU the doctor finds failing (memory errors, a
// reset it needs, lost from the bus, NVLink, GSP) blocks the gate with one "health.gpu" reason
// naming it. `check --quick` and `node` hand in the verdict of the doctor they ran; `gate` on
// this host asks NVML and reads the kernel log itself (no CUDA probe: seconds, not minutes).
#pragma once

#include <string>
#include <vector>

#include "doctor/finding.hpp"
#include "topology/gate.hpp"
#include "topology/snapshot.hpp"

namespace p2p::session {

struct FailingGpu {
  std::string pci_bus_id;  // "0000:41:00.0"
  std::string why;         // the title of the cause that names it
};

// The failing GPUs of a doctor verdict, each with the first (most likely) cause naming it.
std::vector<FailingGpu> failing_gpus_of(const doctor::Verdict& v);

// One blocking "health.gpu" reason per failing GPU (matched to the snapshot by bus id; a GPU the
// snapshot lacks is named by its bus id alone), and the gate no longer passes. Pure.
void block_failing_gpus(topo::GateDecision& d, const topo::TopologySnapshot& t,
                        const std::vector<FailingGpu>& failing);

// This host's failing GPUs: PCI functions, the kernel log and NVML's health facts, judged.
std::vector<FailingGpu> live_failing_gpus(int probe_timeout_ms);

}  // namespace p2p::session
