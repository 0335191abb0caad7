// What a pasted nccl-tests command line tells ("$ ./build/all_reduce_perf -b 8 -e 1G -g 8",
// "mpirun -np 16 /opt/nccl-tests/build/all_gather_perf_mpi ..."): the collective it runs and the
// ranks of its one process, for outputs that name neither.
#pragma once

#include <optional>
#include <string>

namespace p2p::import {

// "" when no token of the line is a *_perf or *_perf_mpi program.
std::string collective_of_command_line(const std::string& line);

// -t x -g of a line that runs a *_perf program in one process; nullopt where the line starts a
// launcher (mpirun, mpiexec, srun: the process count is not known here) or gives neither.
std::optional<int> ranks_of_command_line(const std::string& line);

}  // namespace p2p::import
