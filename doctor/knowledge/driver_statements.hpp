// When the NVIDIA driver explains itself in the kernel log ("NVRM: The NVIDIA Tesla K80 GPU
// installed in this system is supported through the NVIDIA 470.xx Legacy drivers ... The 510.47.03
// NVIDIA driver will ignore this GPU"), that sentence is the diagnosis: the verdict quotes it and
// gives the fix it implies, never one that contradicts it ("install the driver" to a host whose
// driver is installed and refuses the GPU). The driver prints such a sentence over several NVRM
// lines; statements() joins them back. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"

namespace p2p::doctor {

struct DriverStatement {
  enum class Kind {
    kLegacyBranch,          // the GPU is supported only by a legacy branch (470.xx, 390.xx, ...)
    kUnsupportedByRelease,  // the GPU is not supported by this release at all
    kOpenModuleNoGsp,       // the open nvidia.ko cannot drive a GPU without a GSP
    kResetRequired,         // the driver needs the GPU reset (NV_ERR_RESET_REQUIRED, Xid 154)
  } kind = Kind::kLegacyBranch;
  std::string quote;              // the joined sentence, as the driver printed it
  std::vector<std::string> gpus;  // bus ids the statement concerns (attributed when it names none)
  std::optional<int> legacy_branch;     // 470 for "470.xx Legacy drivers"
  std::optional<std::string> driver;    // the version that refused ("510.47.03")
  std::optional<std::string> gpu_name;  // "Tesla K80"
  std::optional<int> recovery_action;   // kResetRequired: the action Xid 154 names
};

// The driver's statements in the kernel log, in log order (empty when the log was not read). A
// reset request followed by a later driver load is history and left out.
std::vector<DriverStatement> driver_statements(const Facts& f);

// The driver statements of one kind.
std::vector<DriverStatement> statements_of(const Facts& f, DriverStatement::Kind kind);

// Whether the driver explained why it drives no GPU (a legacy, unsupported or GSP-less GPU): then
// the NVIDIA driver is installed, and "no driver" is the wrong diagnosis.
bool driver_refused_gpus(const Facts& f);

// The first refusal (not a reset request) the driver states; nullopt when it stated none.
std::optional<DriverStatement> first_refusal(const Facts& f);
// The GPUs the driver refused, by any statement.
std::vector<std::string> refused_gpus(const Facts& f);

// The fix a refusal implies: the legacy branch it names (checked against NVIDIA's legacy table),
// or the proprietary module for a GPU without a GSP. Never "install the driver".
std::string refusal_fix(const DriverStatement& s);

// The driver installed here: the loaded module's version, else the driver libraries', else the
// version the kernel log says was loaded. And whether that module is the open flavour.
std::optional<std::string> installed_driver(const Facts& f);
bool open_module_installed(const Facts& f);

// Where the kernel log last shows the nvidia module being loaded. A line before it is history:
// the driver was reloaded since. Found once per log, so that judging every line stays linear in
// the log (asking "reloaded after this line?" of each line was quadratic: 120,000 lines took 86 s).
class ModuleReloads {
 public:
  explicit ModuleReloads(const std::vector<std::string>& lines);
  // Whether the line at `index` is followed by a later load of the module.
  bool after(std::size_t index) const { return last_load_ && *last_load_ > index; }

 private:
  std::optional<std::size_t> last_load_;
};

}  // namespace p2p::doctor
