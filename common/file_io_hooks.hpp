// A seam for the tests of common/file_io.cpp, never set by p2pcheck itself: a function called
// inside an atomic write at the one moment a test cannot reach from outside.
#pragma once

namespace p2p::file_io_hooks {

// Called just after the temporary file is created, before it is held for removal (while the
// signals that end the process are blocked); nullptr = nothing.
extern void (*after_temp_created)();

}  // namespace p2p::file_io_hooks
