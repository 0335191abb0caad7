// The kernel log read by what its lines show: a GPU lost or its GSP silent, firmware and adapter
// initialisation failures, the module refused or another driver on the GPU, BAR space, IOMMU
// faults.
#include <optional>
#include <string>

#include "doctor/derived.hpp"
#include "doctor/derived_match.hpp"

namespace p2p::doctor {

namespace {

// A GSP that stops answering: its RPC timeout, a missed heartbeat, Xid 119 or 120.
bool is_gsp_timeout(const std::string& line, const std::optional<int>& xid) {
  return contains(line, "Timeout waiting for RPC from GSP") ||
         (contains(line, "GSP") && contains(line, "heartbeat timed out")) ||
         (xid && (*xid == 119 || *xid == 120));
}

// What a line says about the GPU and the module as a whole, read on every line (a GSP timeout's
// included): a GPU off the bus, the GSP timeout itself, a sleep cycle, a refused signature.
void note_gpu_and_module(const std::string& line, const std::optional<int>& xid, bool gsp_timeout,
                         const std::string& gpu_line, LogSignals& s) {
  if (contains(line, "fallen off the bus") || (xid && *xid == 79))
    s.gpu_lost.push_back(bdfs_in_line(line).empty() && !gpu_line.empty() ? gpu_line + " " + line
                                                                         : line);
  if (gsp_timeout) s.gsp_timeout.push_back(line);
  if (contains(line, "PM: suspend") || contains(line, "PM: hibernation")) s.suspend.push_back(line);
  if (contains(line, "Loading of module with unavailable key is rejected") ||
      contains(line, "unsigned module loading is restricted") ||
      contains(line, "Key was rejected by service"))
    s.module_rejected.push_back(line);
  if (contains(line, "Secure boot enabled")) s.secure_boot.push_back(line);
}

// What a line says about the driver bringing a GPU up: firmware, adapter initialisation, a GPU
// left dirty, HMM, a library of another version, the module needed, another driver on the GPU.
void note_driver_start(const std::string& line, LogSignals& s) {
  if ((contains(line, "Direct firmware load") && contains(line, "nvidia/")) ||
      contains(line, "RmFetchGspRmImages") || contains(line, "Cannot initialize GSP firmware") ||
      (contains(line, "GSP") &&
       (contains(line, "fail") || contains(line, "error") || contains(line, "timeout"))))
    s.firmware_load.push_back(line);
  if (contains(line, "RmInitAdapter failed") || contains(line, "rm_init_adapter failed") ||
      contains(line, "RmInitAdapter: Cannot"))
    s.rm_init.push_back(line);
  if (contains(line, "WPR2 already up")) s.wpr2.push_back(line);
  if (contains(line, "request_free_mem_region() err -34") ||
      (contains(line, "devmem_alloc_pagemap") && contains(line, "err")))
    s.hmm.push_back(line);
  if (contains(line, "API mismatch")) s.api_mismatch.push_back(line);
  if (contains(line, "requires use of the NVIDIA open kernel modules"))
    s.open_required.push_back(line);
  if (line.rfind("nouveau ", 0) == 0 || contains(line, "nouveau 0000:")) s.nouveau.push_back(line);
  if (contains(line, "probe routine was not called") ||
      contains(line, "obtained ownership of the NVIDIA device"))
    s.not_probed.push_back(line);
}

// What a line says about the platform around the GPU: BAR space, IOMMU faults, UVM's device number.
void note_platform(const std::string& line, LogSignals& s) {
  if ((contains(line, "BAR") &&
       (contains(line, "no space for") || contains(line, "failed to assign"))) ||
      contains(line, "is 0M @ 0x0") ||
      contains(line, "PCI I/O region assigned to your NVIDIA device is invalid") ||
      contains(line, "BIOS may have misconfigured your GPU"))
    s.bar_space.push_back(line);
  if (contains(line, "IO_PAGE_FAULT") ||
      (contains(line, "DMAR") &&
       (contains(line, "Request device") || contains(line, "handling fault"))))
    s.iommu_faults.push_back(line);
  const auto at = line.find("major device number ");
  if (contains(line, "UVM driver") && at != std::string::npos) {
    try {
      s.uvm_major_logged = std::stoi(line.substr(at + 20));
    } catch (...) {
    }
  }
}

}  // namespace

LogSignals log_signals(const Facts& f) {
  LogSignals s;
  if (!f.kernel.log_lines.present()) return s;
  std::string gpu_line;  // the last "The NVIDIA GPU <bdf>" line: a multi-line record's first line
  for (const auto& line : f.kernel.log_lines.value) {
    const auto xid = xid_code(line);
    if (contains(line, "The NVIDIA GPU ") && !bdfs_in_line(line).empty()) gpu_line = line;
    const bool gsp_timeout = is_gsp_timeout(line, xid);
    note_gpu_and_module(line, xid, gsp_timeout, gpu_line, s);
    // A GSP that stops answering is not a firmware file problem: those lines are gsp_timeout only.
    if (gsp_timeout) continue;
    note_driver_start(line, s);
    note_platform(line, s);
  }
  return s;
}

}  // namespace p2p::doctor
