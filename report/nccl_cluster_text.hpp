// Text output of an NCCL run across MPI hosts: which ranks ran where, the transports between
// hosts, and the host-pair matrix. Pure functions of the records; "" for a one-host run.
#pragma once

#include <string>

#include "document/nccl_run.hpp"

namespace p2p::report {

// Hosts with their ranks and processes, the host-by-host transport matrix, and the host-pair
// send bandwidth (row sends to column) at the largest size measured, with each row's and
// column's median so one slow host stands out.
std::string format_cluster(const doc::NcclRun& run);

}  // namespace p2p::report
