// How a command that threw ends: one line on stderr and the exit code its kind of failure has
// (docs/outputs-and-exit-codes.md). Apart from main() so a test can throw each kind.
#pragma once

#include <exception>
#include <ostream>
#include <string>
#include <vector>

namespace p2p::cli {

// Every error is one line, whatever the message carries (a newline or a control byte from a file
// name or a value read from input is written as an escape).
std::string one_line(const std::string& text);

// The line and exit code for `failure`, thrown by a command given `args`:
//   InputError 2, NoGpuError 3, HangError 5, BusyError 6, any other exception 4;
//   std::bad_alloc 2 naming the files among `args` (an input too large for this host's memory),
//   or 4 where no file was given.
int exit_for_failure(std::exception_ptr failure, const std::vector<std::string>& args,
                     std::ostream& err);

}  // namespace p2p::cli
