// `p2pcheck --version`: the version, then one line per optional part (CUDA, NCCL, MPI,
// sanitizers) saying whether this build has it, so a bug report or a fleet inventory shows
// what the binary can do without running it.
#pragma once

#include <string>

namespace p2p::cli {

// What the build configuration put in (empty strings: not built in).
struct BuildParts {
  std::string version;       // "0.1.0"
  std::string cuda_toolkit;  // "12.4.131"
  std::string nccl_headers;  // "2.21.5"
  std::string mpi;           // "Open MPI 4.1.4", from its mpi.h
  std::string sanitizers;    // "address,undefined"
};

// This executable's parts, from its build configuration.
BuildParts this_build();

// The text --version prints, one part per line, each line "name: what".
std::string version_text(const BuildParts& parts);

}  // namespace p2p::cli
