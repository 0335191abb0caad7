#include "cli/version_text.hpp"

// The build configuration's facts, given by cli/CMakeLists.txt to this file only; a build
// without a part leaves its macro empty.
#ifndef P2P_BUILD_CUDA
#define P2P_BUILD_CUDA ""
#endif
#ifndef P2P_BUILD_NCCL
#define P2P_BUILD_NCCL ""
#endif
#if P2P_BUILD_MPI
#include <mpi.h>
#endif
#ifndef P2P_BUILD_SANITIZERS
#define P2P_BUILD_SANITIZERS ""
#endif

namespace p2p::cli {
namespace {

// The MPI library's name and version as its mpi.h gives them, "" without MPI.
std::string mpi_of_this_build() {
#if P2P_BUILD_MPI && defined(OMPI_MAJOR_VERSION)
  return "Open MPI " + std::to_string(OMPI_MAJOR_VERSION) + "." +
         std::to_string(OMPI_MINOR_VERSION) + "." + std::to_string(OMPI_RELEASE_VERSION);
#elif P2P_BUILD_MPI && defined(MPICH_VERSION)
  return std::string("MPICH ") + MPICH_VERSION;
#elif P2P_BUILD_MPI
  return "MPI " + std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION);
#else
  return "";
#endif
}

}  // namespace

BuildParts this_build() {
  BuildParts p;
  p.version = P2P_VERSION;
  p.cuda_toolkit = P2P_BUILD_CUDA;
  p.nccl_headers = P2P_BUILD_NCCL;
  p.mpi = mpi_of_this_build();
  p.sanitizers = P2P_BUILD_SANITIZERS;
  return p;
}

std::string version_text(const BuildParts& parts) {
  std::string out = "p2pcheck " + parts.version + "\n";
  out += "CUDA: " +
         (parts.cuda_toolkit.empty()
              ? std::string("no (bench, nccl and infer say so; doctor, topo, gate and the "
                            "document commands work)")
              : "toolkit " + parts.cuda_toolkit +
                    " (runtime linked in; the driver is loaded at run time)") +
         "\n";
  out += "NCCL: " +
         (parts.nccl_headers.empty()
              ? std::string("no")
              : "headers " + parts.nccl_headers + " (libnccl.so.2 is loaded at run time)") +
         "\n";
  out += "MPI: " +
         (parts.mpi.empty() ? std::string("no (cluster and nccl --mpi say so)") : parts.mpi) + "\n";
  out +=
      "sanitizers: " + (parts.sanitizers.empty() ? std::string("none") : parts.sanitizers) + "\n";
  return out;
}

}  // namespace p2p::cli
