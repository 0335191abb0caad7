// Pure readings of the facts about GSP: whether it runs on each GPU, and whether the firmware
// file the GPUs need is where the module looks for it.
#include <set>

#include "doctor/derived.hpp"
#include "doctor/derived_match.hpp"

namespace p2p::doctor {

namespace {

bool gsp_value_running(const std::string& v) { return !v.empty() && v != "N/A"; }

}  // namespace

GspRun gsp_run(const Facts& f) {
  GspRun r;
  std::set<std::string> versions;
  const bool open_module = module_flavour(f) == Flavour::kOpen;
  for (const auto& g : gpus(f)) {
    std::optional<bool> running;
    std::string version;
    if (g.info != nullptr && g.info->gsp_firmware) {
      running = gsp_value_running(*g.info->gsp_firmware);
      version = *g.info->gsp_firmware;
    } else if (g.nvml != nullptr && g.nvml->gsp_firmware_enabled) {
      running = *g.nvml->gsp_firmware_enabled;
      version = g.nvml->gsp_firmware_version.value_or("");
    }
    if (!running) {
      ++r.unknown;
    } else if (*running) {
      ++r.running;
      if (!version.empty()) versions.insert(version);
    } else {
      ++r.off;
      if (open_module || g.generation.needs_open_module) ++r.off_required;
    }
  }
  r.versions.assign(versions.begin(), versions.end());
  return r;
}

bool gsp_running_everywhere(const Facts& f) {
  const GspRun r = gsp_run(f);
  return r.running > 0 && r.off == 0 && r.unknown == 0;
}

FirmwareCheck firmware_check(const Facts& f) {
  FirmwareCheck c;
  std::set<std::string> needed;
  for (const auto& g : gpus(f))
    if (!g.generation.gsp_firmware.empty()) needed.insert(g.generation.gsp_firmware);
  c.needed.assign(needed.begin(), needed.end());
  if (c.needed.empty()) {
    c.state = FirmwareCheck::State::kNotNeeded;
    return c;
  }
  const auto version = module_version(f);
  if (f.firmware.versions.present())
    for (const auto& v : f.firmware.versions.value)
      if (!version || v != *version) c.other_versions.push_back(v);
  if (!version) return c;  // kUnknown
  c.directory = "/lib/firmware/nvidia/" + *version;
  if (f.firmware.gsp_files.present()) {
    for (const auto& n : c.needed)
      if (!has(f.firmware.gsp_files.value, n)) c.missing.push_back(n);
  } else if (f.firmware.gsp_files.absent()) {
    c.missing = c.needed;
  } else {
    return c;  // listing unreadable or not checked: kUnknown
  }
  // The open module cannot run without GSP, nor can Blackwell; the proprietary module can run
  // older GPUs (GeForce among them) with GSP off, so there a missing file is not a fault by
  // itself, wherever the doctor runs.
  bool required = module_flavour(f) != Flavour::kProprietary;
  for (const auto& g : gpus(f)) required = required || g.generation.needs_open_module;
  if (c.missing.empty()) {
    c.state = FirmwareCheck::State::kPresent;
  } else if (gsp_running_everywhere(f)) {
    c.state = FirmwareCheck::State::kElsewhere;
  } else if (!required) {
    c.state = FirmwareCheck::State::kOptional;
  } else if (in_container(f)) {
    c.state = FirmwareCheck::State::kNotVisible;
  } else {
    c.state = FirmwareCheck::State::kMissing;
  }
  return c;
}

}  // namespace p2p::doctor
