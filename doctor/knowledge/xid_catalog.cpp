// The Xid catalog table. Written from NVIDIA's Xid documentation
// (https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html, and the Xid list of
// https://docs.nvidia.com/deploy/xid-errors/index.html for the older codes): the Xid, a short name,
// its meaning in our words, how grave it is for acceptance, and NVIDIA's immediate resolution
// bucket. Xids the catalog marks unused are left out.
//
// Severity follows the bucket: RESET_GPU, RESTART_BM, the memory and NVLink workflows and
// CHECK_MECHANICALS fail a GPU; RESTART_APP is the application's; IGNORE is informational. Two
// departures, both stricter: Xid 94 (a contained memory error, RESTART_APP in the catalog) is still
// an uncorrectable memory error whose row is remapped only at the next reset, so it fails; and Xid
// 92 (a high rate of corrected errors, IGNORE) warns, as corrected errors do.
#include "doctor/knowledge/xid_catalog.hpp"

#include <iterator>
#include <regex>

#include "doctor/health_facts.hpp"

namespace p2p::doctor {

namespace {

using A = XidAction;
using S = XidSeverity;

const XidInfo kCatalog[] = {
    {8, 8, "GPU stopped processing", "a channel stopped making progress (idle timeout)",
     S::kApplication, A::kRestartApp},
    {11, 11, "invalid push buffer", "the GPU received an invalid or corrupted command stream",
     S::kApplication, A::kRestartApp},
    {13, 13, "graphics engine exception",
     "an exception in the graphics/compute engine, most often an out-of-bounds access by a kernel",
     S::kApplication, A::kRestartApp},
    {25, 25, "invalid push buffer", "an invalid or illegal command stream", S::kApplication,
     A::kRestartApp},
    {31, 31, "GPU memory page fault", "a kernel touched GPU memory it has no mapping for",
     S::kApplication, A::kRestartApp},
    {32, 32, "corrupted push buffer", "the command stream reaching the GPU was corrupted",
     S::kApplication, A::kRestartApp},
    {37, 38, "driver firmware error", "the driver's firmware reported an error", S::kInformational,
     A::kIgnore},
    {39, 41, "copy engine exception", "a copy engine faulted", S::kApplication, A::kRestartApp},
    {43, 43, "GPU stopped processing", "a channel was reset after an error in its application",
     S::kInformational, A::kIgnore},
    {44, 44, "graphics engine fault during context switch",
     "the engine faulted while switching contexts", S::kInformational, A::kIgnore},
    {45, 45, "preemptive cleanup", "channels torn down because of an earlier error (see that Xid)",
     S::kInformational, A::kIgnore},
    {46, 46, "GPU stopped processing", "the GPU stopped answering within the timeout", S::kFailing,
     A::kResetGpu},
    {48, 48, "double-bit ECC error", "an uncorrectable error in GPU memory", S::kFailing,
     A::kMemoryWorkflow},
    {54, 54, "auxiliary power not connected", "the board's auxiliary power is missing", S::kFailing,
     A::kCheckMechanicals},
    {60, 60, "video processor exception", "a video processor faulted", S::kApplication,
     A::kRestartApp},
    {62, 62, "internal micro-controller halt", "a micro-controller on the GPU halted", S::kFailing,
     A::kResetGpu},
    {63, 63, "memory page retirement or row remap recorded",
     "the GPU recorded memory to retire or remap; it takes effect at the next reset",
     S::kInformational, A::kIgnore},
    {64, 64, "memory page retirement or row remap failed",
     "the GPU could not retire or remap failing memory", S::kFailing, A::kResetGpu},
    {66, 67, "illegal access by the driver", "the driver touched a register it may not",
     S::kInformational, A::kIgnore},
    {68, 68, "video decoder exception", "NVDEC0 faulted", S::kApplication, A::kRestartApp},
    {69, 69, "graphics engine class error", "an application sent an invalid command to the engine",
     S::kApplication, A::kRestartApp},
    {70, 72, "copy engine error", "a copy engine faulted", S::kApplication, A::kRestartApp},
    {74, 74, "NVLink error", "an NVLink link reported an error it could not recover", S::kFailing,
     A::kNvlinkWorkflow},
    {75, 77, "copy engine error", "a copy engine faulted", S::kApplication, A::kRestartApp},
    {78, 78, "vGPU start error", "a vGPU failed to start (host and guest software disagree)",
     S::kFailing, A::kUpdateSoftware},
    {79, 79, "GPU has fallen off the bus", "the GPU stopped answering on PCIe", S::kFailing,
     A::kRebootNode},
    {80, 80, "corrupted data sent to the GPU", "data reaching the GPU failed its check",
     S::kApplication, A::kRestartApp},
    {82, 86, "video or optical-flow engine error", "an NVJPG, NVDEC or OFA engine faulted",
     S::kApplication, A::kRestartApp},
    {88, 89, "video decoder error", "an NVDEC engine faulted", S::kApplication, A::kRestartApp},
    {92, 92, "high single-bit ECC error rate",
     "corrected memory errors are arriving faster than expected", S::kApplication, A::kIgnore},
    {93, 93, "InfoROM wear limit", "the InfoROM's provisioned write limit was passed",
     S::kInformational, A::kIgnore},
    {94, 94, "contained memory error",
     "an uncorrectable memory error, contained to the application that met it; the row is "
     "remapped at the next reset",
     S::kFailing, A::kRestartApp},
    {95, 95, "uncontained memory error",
     "an uncorrectable memory error that could not be contained", S::kFailing, A::kResetGpu},
    {96, 105, "video engine error", "an NVDEC or NVJPG engine faulted", S::kApplication,
     A::kRestartApp},
    {109, 109, "context switch timeout", "the GPU did not finish a context switch in time",
     S::kFailing, A::kResetGpu},
    {110, 110, "security fault", "the GPU's security engine reported a fault", S::kFailing,
     A::kResetGpu},
    {119, 119, "GSP RPC timeout", "the GSP firmware stopped answering the driver", S::kFailing,
     A::kResetGpu},
    {120, 120, "GSP error", "the GSP firmware reported an error", S::kFailing, A::kResetGpu},
    {121, 121, "C2C link error", "a corrected error on the chip-to-chip link", S::kInformational,
     A::kIgnore},
    {126, 135, "copy engine error", "a copy engine faulted", S::kApplication, A::kRestartApp},
    {136, 136, "link training failed", "a link failed to train", S::kFailing, A::kResetGpu},
    {137, 137, "NVLink privilege error", "an NVLink access was refused", S::kInformational,
     A::kIgnore},
    {139, 139, "optical-flow engine error", "OFA1 faulted", S::kApplication, A::kRestartApp},
    {140, 140, "unrecovered ECC error", "an ECC error the GPU could not recover", S::kFailing,
     A::kResetGpu},
    {141, 141, "CUDA fast path error", "an error on CUDA's fast path", S::kInformational,
     A::kIgnore},
    {143, 143, "GPU initialization error", "the GPU failed to initialise", S::kFailing,
     A::kResetGpu},
    {144, 150, "NVLink error", "an NVLink (NVLink 5) unit reported an error", S::kFailing,
     A::kNvlinkWorkflow},
    {151, 151, "key rotation error", "a confidential-computing key rotation failed", S::kFailing,
     A::kRestartVm},
    {154, 154, "GPU recovery action changed", "the driver now asks for the recovery it names",
     S::kInformational, A::kRecoveryChanged},
    {155, 155, "NVLink software-defined error", "NVLink reported an error defined by software",
     S::kFailing, A::kResetGpu},
    {156, 156, "resource retirement event", "the GPU retired a resource; a reset applies it",
     S::kFailing, A::kResetGpu},
    {157, 157, "resource retirement failure", "the GPU could not retire a resource",
     S::kApplication, A::kIgnore},
    {158, 158, "GPU fatal timeout", "the GPU hit a fatal timeout", S::kFailing, A::kResetGpu},
    {159, 159, "CHI non-data error", "a coherent-interconnect error", S::kApplication, A::kIgnore},
    {160, 165, "channel retirement or power smoothing event",
     "a channel was retired, or the power-smoothing circuitry changed state", S::kInformational,
     A::kIgnore},
    {168, 168, "reduced GPU memory capacity", "errors in protected memory reduced the capacity",
     S::kApplication, A::kIgnore},
    {169, 169, "internal micro-controller halt", "the SEC2 micro-controller halted", S::kFailing,
     A::kResetGpu},
    {171, 172, "uncorrectable DRAM or SRAM error", "details of an uncorrectable memory error",
     S::kFailing, A::kMemoryWorkflow},
};

}  // namespace

const XidInfo* find_xid(int xid) {
  for (const auto& row : kCatalog)
    if (xid >= row.first && xid <= row.last) return &row;
  return nullptr;
}

std::string xid_action_text(XidAction action, const std::string& bdf) {
  // A line that names no GPU leaves the user to find it: `nvidia-smi -r -i ` alone is no advice.
  const std::string reset = "reset the GPU (nvidia-smi -r -i " +
                            (bdf.empty() ? std::string("<its bus id>") : bdf) +
                            ", no process may use it) or reboot the node";
  switch (action) {
    case A::kIgnore: return "nothing by itself: it accompanies another event";
    case A::kRestartApp:
      return "restart the application that met it; if different applications keep meeting it on "
             "this GPU, suspect the GPU";
    case A::kResetGpu:
      return reset + "; if it comes back after the reset, have the GPU replaced (RMA)";
    case A::kRebootNode:
      return "power the node off and on (a warm reboot may not bring the GPU back); reseat the "
             "GPU and its power cables, check the power supply and cooling; replace the GPU (RMA) "
             "if the fault follows it";
    case A::kMemoryWorkflow:
      return reset +
             " so that the driver retires or remaps the failing memory; replace the GPU "
             "(RMA) if uncorrectable errors recur or a remap fails";
    case A::kNvlinkWorkflow:
      return "reset the GPUs of the NVLink domain or reboot the node; if the same links fail "
             "again, have the NVLink/NVSwitch hardware checked (RMA)";
    case A::kCheckMechanicals:
      return "connect the GPU's auxiliary power cables and check the power supply";
    case A::kUpdateSoftware:
      return "install host vGPU manager and guest driver releases that match";
    case A::kRestartVm: return "restart the VM";
    case A::kRecoveryChanged: return "take the recovery action the line names";
  }
  return "";
}

const char* xid_action_name(XidAction action) {
  switch (action) {
    case A::kIgnore: return "IGNORE";
    case A::kRestartApp: return "RESTART_APP";
    case A::kResetGpu: return "RESET_GPU";
    case A::kRebootNode: return "RESTART_BM";
    case A::kMemoryWorkflow: return "WORKFLOW_XID_48";
    case A::kNvlinkWorkflow: return "WORKFLOW_NVLINK_ERR";
    case A::kCheckMechanicals: return "CHECK_MECHANICALS";
    case A::kUpdateSoftware: return "UPDATE_SWFW";
    case A::kRestartVm: return "RESTART_VM";
    case A::kRecoveryChanged: return "XID_154";
  }
  return "";
}

const char* to_string(XidSeverity s) {
  switch (s) {
    case S::kFailing: return "failing";
    case S::kApplication: return "application";
    case S::kInformational: return "informational";
  }
  return "";
}

std::optional<int> recovery_action_in_line(const std::string& line) {
  // "GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)"
  static const std::regex kTo(
      "recovery action changed from 0x[0-9a-fA-F]+[^)]*\\) to 0x([0-9a-fA-F]+)");
  std::smatch m;
  if (!std::regex_search(line, m, kTo)) return std::nullopt;
  const int value = std::stoi(m[1].str(), nullptr, 16);
  // The line's bits: 0x1 reset, 0x2 node reboot, 0x4 drain P2P, 0x8 drain and reset.
  if (value & 0x2) return recovery_action::kNodeReboot;
  if (value & 0x8) return recovery_action::kDrainAndReset;
  if (value & 0x1) return recovery_action::kGpuReset;
  if (value & 0x4) return recovery_action::kDrainP2p;
  return recovery_action::kNone;
}

bool nonfatal_nvlink_line(const std::string& line) {
  return line.find("Nonfatal") != std::string::npos || line.find("Non-fatal") != std::string::npos;
}

}  // namespace p2p::doctor
