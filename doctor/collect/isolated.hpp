// Probes of the driver run in a forked child (common/isolated.hpp), so that a driver that
// crashes (SIGSEGV inside libcuda) or hangs (cuInit waiting on a wedged GPU) cannot take the
// doctor down with it.
#pragma once

#include <exception>
#include <string>

#include "common/isolated.hpp"
#include "doctor/probe_states.hpp"

namespace p2p::doctor {

// The runner lives in common/ (topology loads untrusted hwloc XML through it too).
using p2p::Emit;
using p2p::IsolatedResult;
using p2p::run_isolated;

// Turns what an isolated probe left behind into its record (CudaProbe, NvmlProbe: anything
// with `status` and `detail`). `parse` reads the child's last JSON line. A child that crashed
// or timed out keeps the furthest step it reported, and the detail says both what happened
// and where ("SIGSEGV (stopped inside cuInit)").
template <class Probe, class Parse>
Probe probe_from_isolated(const IsolatedResult& r, Parse parse) {
  Probe p;
  if (!r.output.empty()) {
    try {
      p = parse(r.output);
    } catch (const std::exception& e) {
      p = Probe{};
      p.status = ProbeStatus::kFailed;
      p.detail = std::string("unreadable probe output: ") + e.what();
      return p;
    }
  }
  if (r.status == IsolatedStatus::kCompleted) {
    if (r.output.empty()) {
      p.status = ProbeStatus::kFailed;
      p.detail = "the probe reported nothing";
    }
    return p;
  }
  const std::string where = p.detail;
  p.status = probe_status_of(r.status);
  p.detail = r.detail + (where.empty() ? "" : " (" + where + ")");
  return p;
}

}  // namespace p2p::doctor
