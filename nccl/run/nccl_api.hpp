// libnccl.so.2 loaded at run time into a table of functions typed from nccl.h, so p2pcheck
// starts on hosts without NCCL and a changed signature is a compile error, not a crash.
// Every NCCL call goes through P2P_CHECK, which throws ApiError("NCCL", ...).
#pragma once

#include <nccl.h>

#include <string>

#include "common/dynamic_library.hpp"
#include "common/error.hpp"

namespace p2p::nccl {

struct NcclApi {
  decltype(&::ncclGetVersion) get_version = nullptr;
  decltype(&::ncclGetErrorString) get_error_string = nullptr;
  decltype(&::ncclCommInitAll) comm_init_all = nullptr;
  decltype(&::ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&::ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&::ncclCommDestroy) comm_destroy = nullptr;
  decltype(&::ncclCommAbort) comm_abort = nullptr;
  decltype(&::ncclCommGetAsyncError) comm_get_async_error = nullptr;
  decltype(&::ncclGroupStart) group_start = nullptr;
  decltype(&::ncclGroupEnd) group_end = nullptr;
  decltype(&::ncclAllReduce) all_reduce = nullptr;
  decltype(&::ncclAllGather) all_gather = nullptr;
  decltype(&::ncclReduceScatter) reduce_scatter = nullptr;
  decltype(&::ncclBroadcast) broadcast = nullptr;
  decltype(&::ncclSend) send = nullptr;
  decltype(&::ncclRecv) recv = nullptr;
  decltype(&::ncclGetLastError) get_last_error = nullptr;  // optional: NCCL 2.13 and later
  // Optional: NCCL 2.28 and later. Typed by hand so headers older than 2.28 still build; where
  // the library has it, alltoall uses it (as nccl-tests does) instead of grouped send/recv.
  ncclResult_t (*all_to_all)(const void* sendbuff, void* recvbuff, size_t count,
                             ncclDataType_t type, ncclComm_t comm, cudaStream_t stream) = nullptr;
  // Optional: NCCL 2.19 and later (typed by hand for the same reason). Buffers come from here
  // where the library has it, as nccl-tests allocates them (see RankBuffers).
  ncclResult_t (*mem_alloc)(void** ptr, size_t size) = nullptr;
  ncclResult_t (*mem_free)(void* ptr) = nullptr;

  std::string library_path;  // the file actually loaded
};

// Loads `soname` and resolves every required symbol. NoGpuError (exit 3) naming the library
// and dlerror() when it cannot be loaded, or the first missing symbol.
NcclApi load_nccl_api(const std::string& soname);

// libnccl.so.2, loaded on first use and kept for the life of the process.
const NcclApi& nccl_api();

// "ncclSystemError" for a result code; independent of the loaded library.
const char* nccl_result_name(ncclResult_t r);

}  // namespace p2p::nccl

namespace p2p {

void check(ncclResult_t r, CallSite at);

}  // namespace p2p
