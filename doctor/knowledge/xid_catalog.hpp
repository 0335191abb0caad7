// NVIDIA's Xid catalog as data: for each Xid the driver logs ("NVRM: Xid (PCI:0000:41:00): 48,
// ..."), what it means, how grave it is for acceptance and what to do. The table is in
// xid_catalog.cpp, written from NVIDIA's public Xid documentation (the source below); the
// resolution buckets are NVIDIA's, the words are ours.
#pragma once

#include <optional>
#include <string>

namespace p2p::doctor {

constexpr const char* kXidCatalogSource =
    "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html";

// NVIDIA's immediate resolution bucket for the Xid.
enum class XidAction {
  kIgnore,            // IGNORE: informational, or follows another Xid
  kRestartApp,        // RESTART_APP: the application's error; the GPU stays usable
  kResetGpu,          // RESET_GPU
  kRebootNode,        // RESTART_BM: power-cycle the node
  kMemoryWorkflow,    // WORKFLOW_XID_48: reset so the driver retires/remaps, RMA on recurrence
  kNvlinkWorkflow,    // WORKFLOW_NVLINK_ERR / WORKFLOW_NVLINK5_ERR
  kCheckMechanicals,  // CHECK_MECHANICALS: power cables, seating
  kUpdateSoftware,    // UPDATE_SWFW
  kRestartVm,         // RESTART_VM (confidential computing)
  kRecoveryChanged,   // Xid 154: the action is in the line ("... to 0x1 (GPU Reset Required)")
};

// What an Xid means for acceptance testing.
enum class XidSeverity {
  kFailing,        // the GPU cannot be trusted until the action is taken: fails the acceptance
  kApplication,    // an application's fault (or one that recovers): a warning
  kInformational,  // a record that accompanies other events: a note
};

struct XidInfo {
  int first = 0;  // the Xid, or the first of a range of the same kind (copy engines, NVDEC, ...)
  int last = 0;
  const char* name = "";     // short name ("double-bit ECC error")
  const char* meaning = "";  // one sentence
  XidSeverity severity = XidSeverity::kApplication;
  XidAction action = XidAction::kIgnore;
};

// The catalog row for this Xid; nullptr for an Xid the catalog does not list (or lists unused).
const XidInfo* find_xid(int xid);

// What to do for this action, in one sentence ("reset the GPU ..."); `bdf` is named in it.
std::string xid_action_text(XidAction action, const std::string& bdf);

// "RESET_GPU", "RESTART_APP", ...: NVIDIA's bucket name.
const char* xid_action_name(XidAction action);
const char* to_string(XidSeverity s);  // "failing", "application", "informational"

// Xid 154 names the recovery action the driver now asks for ("changed from 0x0 (None) to 0x1
// (GPU Reset Required)"): that value (recovery_action::k*), or nullopt when the line has none.
std::optional<int> recovery_action_in_line(const std::string& line);

// NVLink errors of Blackwell (Xid 144-150) say "Nonfatal" for events the link recovers from.
bool nonfatal_nvlink_line(const std::string& line);

}  // namespace p2p::doctor
