// Runs a probe in a forked child so that a driver that crashes (SIGSEGV inside libcuda) or hangs
// (cuInit waiting on a wedged GPU) cannot take the doctor down with it. The child reports
// through a pipe, one line per step; the parent keeps the last complete line, so a probe that
// dies half-way still says how far it got.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace p2p::doctor {

struct IsolatedResult {
  std::string status;  // "completed" | "crashed" | "timed_out" | "failed"
  std::string output;  // the last complete line the child emitted ("" if none)
  std::string detail;  // "SIGSEGV", "no result after 20 s", "exit status 3", ...
};

using Emit = std::function<void(const std::string& line)>;

// `body` runs in the child and calls `emit` with progress snapshots (each without newlines).
// The child never returns into the caller's stack: it _exit()s after `body`.
IsolatedResult run_isolated(const std::function<void(const Emit& emit)>& body, int timeout_ms);

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
      p.status = "failed";
      p.detail = std::string("unreadable probe output: ") + e.what();
      return p;
    }
  }
  if (r.status == "completed") {
    if (r.output.empty()) {
      p.status = "failed";
      p.detail = "the probe reported nothing";
    }
    return p;
  }
  const std::string where = p.detail;
  p.status = r.status;
  p.detail = r.detail + (where.empty() ? "" : " (" + where + ")");
  return p;
}

}  // namespace p2p::doctor
