#include "infer/ipc_check.hpp"

#include <cuda_runtime_api.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/cuda_resources.hpp"
#include "common/file_io.hpp"
#include "infer/ipc_merge.hpp"

namespace p2p::infer {

namespace {

using Clock = std::chrono::steady_clock;

// Large enough to cross more than one page of the peer's memory, small enough to be instant.
constexpr std::size_t kSlotBytes = std::size_t{64} << 10;
const char kExportFailed[] = "export failed: ";

std::string handle_path(const std::string& dir, int rank) {
  return dir + "/ipc" + std::to_string(rank) + ".handle";
}
std::string wrote_path(const std::string& dir, int rank) {
  return dir + "/ipc" + std::to_string(rank) + ".wrote";
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Waits for `path` until `deadline`; false when it never came.
bool wait_for(const std::string& path, Clock::time_point deadline) {
  while (!exists(path)) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

std::string cuda_text(cudaError_t e) {
  cudaGetLastError();  // the IPC errors are not sticky: clear it so the next call starts clean
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

// A peer's buffer mapped into this process; unmapped on scope exit.
class IpcMapping {
 public:
  IpcMapping() = default;
  ~IpcMapping() {
    if (ptr_ != nullptr) log_if_failed(cudaIpcCloseMemHandle(ptr_), "cudaIpcCloseMemHandle");
  }
  IpcMapping(const IpcMapping&) = delete;
  IpcMapping& operator=(const IpcMapping&) = delete;
  cudaError_t open(const cudaIpcMemHandle_t& h) {
    return cudaIpcOpenMemHandle(&ptr_, h, cudaIpcMemLazyEnablePeerAccess);
  }
  char* get() const { return static_cast<char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

std::string hex(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", b);
  return buf;
}

// Maps `peer`'s buffer and writes our slot in it; "" on success, else why not.
std::string write_to_peer(int rank, int peer, const std::string& dir, Clock::time_point deadline) {
  if (!wait_for(handle_path(dir, peer), deadline))
    return "rank " + std::to_string(peer) + " published no handle in time";
  const std::string text = read_text_file(handle_path(dir, peer));
  if (text.rfind(kExportFailed, 0) == 0)
    return "rank " + std::to_string(peer) + " could not export its buffer: " + text;
  if (text.size() != sizeof(cudaIpcMemHandle_t))
    return "rank " + std::to_string(peer) + "'s handle file is cut short";
  cudaIpcMemHandle_t h{};
  std::memcpy(&h, text.data(), sizeof h);
  IpcMapping peer_buffer;
  if (const cudaError_t e = peer_buffer.open(h); e != cudaSuccess)
    return "cudaIpcOpenMemHandle: " + cuda_text(e);
  char* slot = peer_buffer.get() + static_cast<std::size_t>(rank) * kSlotBytes;
  // A kernel on our GPU writes into the peer's memory: the path an engine's all-reduce takes.
  if (const cudaError_t e = cudaMemset(slot, ipc_pattern(rank, peer), kSlotBytes);
      e != cudaSuccess) {
    return "cudaMemset into the mapped buffer: " + cuda_text(e);
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
    return "cudaDeviceSynchronize: " + cuda_text(e);
  return "";
}

// What the owner found in `writer`'s slot; "" when every byte is the writer's pattern.
std::string check_slot(const std::vector<unsigned char>& host, int writer, int owner) {
  const unsigned char want = ipc_pattern(writer, owner);
  const std::size_t base = static_cast<std::size_t>(writer) * kSlotBytes;
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < kSlotBytes; ++i) {
    if (host[base + i] != want && wrong++ == 0) first = i;
  }
  if (wrong == 0) return "";
  return std::to_string(wrong) + " of " + std::to_string(kSlotBytes) + " bytes wrong; expected " +
         hex(want) + ", byte " + std::to_string(first) + " is " + hex(host[base + first]);
}

}  // namespace

void run_ipc_check(int rank, int nranks, int device, const std::string& dir,
                   std::chrono::duration<double> timeout,
                   const std::function<void(const std::string&)>& report) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout);
  P2P_CHECK(cudaSetDevice(device));
  const std::size_t bytes = kSlotBytes * static_cast<std::size_t>(nranks);
  // cudaMalloc, not ncclMemAlloc: cudaIpcGetMemHandle takes only memory from the runtime allocator.
  const cuda::DevicePtr buffer = cuda::make_device_buffer(device, bytes);
  P2P_CHECK(cudaMemset(buffer.get(), 0, bytes));
  P2P_CHECK(cudaDeviceSynchronize());
  cudaIpcMemHandle_t h{};
  if (const cudaError_t e = cudaIpcGetMemHandle(&h, buffer.get()); e != cudaSuccess) {
    write_text_file_atomically(handle_path(dir, rank),
                               kExportFailed + ("cudaIpcGetMemHandle: " + cuda_text(e)));
  } else {
    write_text_file_atomically(handle_path(dir, rank),
                               std::string(reinterpret_cast<const char*>(&h), sizeof h));
  }

  for (int peer = 0; peer < nranks; ++peer) {
    if (peer == rank) continue;
    const std::string why = write_to_peer(rank, peer, dir, deadline);
    report(to_line(IpcLine{"write", rank, peer, ipc_status_of(why), why}));
  }
  write_text_file_atomically(wrote_path(dir, rank), "");

  std::vector<bool> finished(static_cast<std::size_t>(nranks), false);
  for (int peer = 0; peer < nranks; ++peer) {
    if (peer != rank)
      finished[static_cast<std::size_t>(peer)] = wait_for(wrote_path(dir, peer), deadline);
  }
  std::vector<unsigned char> host(bytes);
  P2P_CHECK(cudaMemcpy(host.data(), buffer.get(), bytes, cudaMemcpyDeviceToHost));
  for (int writer = 0; writer < nranks; ++writer) {
    if (writer == rank) continue;
    std::string why = check_slot(host, writer, rank);
    if (!why.empty() && !finished[static_cast<std::size_t>(writer)])
      why += " (rank " + std::to_string(writer) + " did not finish writing in time)";
    report(to_line(IpcLine{"read", writer, rank, ipc_status_of(why), why}));
  }
}

}  // namespace p2p::infer
