#include "nccl/run/nccl_api.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace p2p::nccl {

namespace {

// The libraries stay loaded until exit: NCCL's proxy threads and atexit handlers outlive any
// scope p2pcheck could close them in.
std::vector<std::unique_ptr<DynamicLibrary>>& loaded_libraries() {
  static std::vector<std::unique_ptr<DynamicLibrary>> libs;
  return libs;
}

// Set once libnccl.so.2 is loaded, so that check() can ask NCCL for its error text without
// ever loading the library itself.
std::atomic<const NcclApi*> g_process_api{nullptr};

template <class Fn>
void resolve(const DynamicLibrary& lib, Fn& slot, const char* name) {
  slot = lib.function<Fn>(name);
  if (slot == nullptr) {
    throw NoGpuError(lib.name() + " has no symbol " + name + " (NCCL too old or not NCCL)");
  }
}

}  // namespace

NcclApi load_nccl_api(const std::string& soname) {
  auto lib = std::make_unique<DynamicLibrary>(DynamicLibrary::open(soname));
  if (!lib->loaded()) throw NoGpuError("cannot load NCCL (" + soname + "): " + lib->error());
  NcclApi api;
  resolve(*lib, api.get_version, "ncclGetVersion");
  resolve(*lib, api.get_error_string, "ncclGetErrorString");
  resolve(*lib, api.comm_init_all, "ncclCommInitAll");
  resolve(*lib, api.get_unique_id, "ncclGetUniqueId");
  resolve(*lib, api.comm_init_rank, "ncclCommInitRank");
  resolve(*lib, api.comm_destroy, "ncclCommDestroy");
  resolve(*lib, api.comm_abort, "ncclCommAbort");
  resolve(*lib, api.comm_get_async_error, "ncclCommGetAsyncError");
  resolve(*lib, api.group_start, "ncclGroupStart");
  resolve(*lib, api.group_end, "ncclGroupEnd");
  resolve(*lib, api.all_reduce, "ncclAllReduce");
  resolve(*lib, api.all_gather, "ncclAllGather");
  resolve(*lib, api.reduce_scatter, "ncclReduceScatter");
  resolve(*lib, api.broadcast, "ncclBroadcast");
  resolve(*lib, api.send, "ncclSend");
  resolve(*lib, api.recv, "ncclRecv");
  api.get_last_error = lib->function<decltype(api.get_last_error)>("ncclGetLastError");
  api.all_to_all = lib->function<decltype(api.all_to_all)>("ncclAlltoAll");
  api.mem_alloc = lib->function<decltype(api.mem_alloc)>("ncclMemAlloc");
  api.mem_free = lib->function<decltype(api.mem_free)>("ncclMemFree");
  if (api.mem_alloc == nullptr || api.mem_free == nullptr)
    api.mem_alloc = nullptr, api.mem_free = nullptr;
  api.library_path = lib->resolved_path("ncclGetVersion");
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  loaded_libraries().push_back(std::move(lib));
  return api;
}

const NcclApi& nccl_api() {
  // A failed load throws out of the initialiser, so the next call tries again.
  static const NcclApi api = load_nccl_api("libnccl.so.2");
  g_process_api.store(&api);
  return api;
}

const char* nccl_result_name(ncclResult_t r) {
  switch (r) {
    case ncclSuccess: return "ncclSuccess";
    case ncclUnhandledCudaError: return "ncclUnhandledCudaError";
    case ncclSystemError: return "ncclSystemError";
    case ncclInternalError: return "ncclInternalError";
    case ncclInvalidArgument: return "ncclInvalidArgument";
    case ncclInvalidUsage: return "ncclInvalidUsage";
    case ncclRemoteError: return "ncclRemoteError";
    case ncclInProgress: return "ncclInProgress";
    default: return "unknown ncclResult_t";
  }
}

}  // namespace p2p::nccl

namespace p2p {

void check(ncclResult_t r, CallSite at) {
  if (r == ncclSuccess) return;
  std::string why = nccl::nccl_result_name(r);
  const nccl::NcclApi* api = nccl::g_process_api.load();
  if (api != nullptr && api->get_error_string != nullptr)
    why += std::string(": ") + api->get_error_string(r);
  throw ApiError("NCCL", static_cast<int>(r), why, at);
}

}  // namespace p2p
