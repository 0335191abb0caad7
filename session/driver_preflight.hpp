// The first thing bench and nccl do with the driver: cuInit and the device count in a child
// with a deadline (doctor::probe_cuda_init), so a driver that hangs or crashes there ends the
// run with one line and exit 5 or 3 instead of hanging or crashing p2pcheck.
#pragma once

#include <string>

namespace p2p::session {

// Throws HangError (exit 5) or NoGpuError (exit 3) naming the cause; returns when the driver
// initialised and reported at least one device. `command` prefixes the message ("bench").
void require_responsive_driver(const std::string& command, double timeout_s);

}  // namespace p2p::session
