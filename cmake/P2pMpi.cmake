# MPI is optional, like CUDA and NCCL: `cluster` (one rank per host) and `nccl` across hosts
# need it; without it everything else builds, and those paths say how to get MPI (Debian:
# libopenmpi-dev openmpi-bin). A binary linked with MPI still runs alone, without mpirun.
# Defines P2P_HAVE_MPI and, when ON, the imported target MPI::MPI_CXX.
option(P2P_WITH_MPI "Build the MPI cluster paths (found with FindMPI)" ON)
set(P2P_HAVE_MPI OFF)
if(P2P_WITH_MPI)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(P2P_HAVE_MPI ON)
    message(STATUS "MPI found (${MPI_CXX_LIBRARY_VERSION_STRING}): building the cluster paths")
  else()
    message(STATUS "MPI not found: building without the cluster paths (Debian: libopenmpi-dev)")
  endif()
endif()
