// The copy and check of the peer-copy probe, per ordered pair: the source fills its buffer with
// a pattern, cuMemcpyPeer copies it into the destination's buffer, and a kernel on the destination
// counts the words that differ; then a kernel on the source stores a second pattern straight into
// the destination's memory (SM stores over the peer mapping) and the destination counts again.
// The kernels are a few lines of PTX that the driver compiles for whatever GPU it has; where that
// fails, the data is checked through the host instead and the SM store is reported as not run.
#include "doctor/collect/peer_copy_check.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace p2p::doctor::peer_copy {

using namespace api;

namespace {

constexpr unsigned kWords = 1u << 18;  // 1 MiB buffers: big enough to cross pages, quick everywhere
constexpr std::size_t kBytes = std::size_t{kWords} * 4;
constexpr unsigned kBlocks = 256;
constexpr unsigned kThreads = 256;
constexpr unsigned kPatternMultiplier = 0x9E3779B1u;  // word i holds i * this + seed
constexpr unsigned kCopySeed = 0x1234567u;
constexpr unsigned kStoreSeed = 0x7654321u;
constexpr unsigned kFaultWords = 1024;
constexpr const char* kFaultVariable = "P2P_DOCTOR_PEER_COPY_FAULT";

// fill(dst, n, seed): dst[i] = i * 0x9E3779B1 + seed (grid-stride loop). Launched on the source
// with a pointer into the destination's memory, it is the SM store over the peer mapping.
// verify(buf, n, seed, bad): atomically counts the words of buf that differ from the pattern.
constexpr const char* kPtx = R"(
.version 6.0
.target sm_50
.address_size 64

.visible .entry p2p_fill(.param .u64 p_dst, .param .u32 p_n, .param .u32 p_seed)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_dst];
  ld.param.u32 %r1, [p_n];
  ld.param.u32 %r2, [p_seed];
  cvta.to.global.u64 %rd2, %rd1;
  mov.b32 %r10, 0x9E3779B1;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  mov.u32 %r7, %nctaid.x;
  mul.lo.s32 %r8, %r7, %r4;
FILL_LOOP:
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra FILL_DONE;
  mad.lo.s32 %r9, %r6, %r10, %r2;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r9;
  add.s32 %r6, %r6, %r8;
  bra.uni FILL_LOOP;
FILL_DONE:
  ret;
}

.visible .entry p2p_verify(.param .u64 p_buf, .param .u32 p_n, .param .u32 p_seed, .param .u64 p_bad)
{
  .reg .pred %p<3>;
  .reg .b32 %r<14>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [p_buf];
  ld.param.u32 %r1, [p_n];
  ld.param.u32 %r2, [p_seed];
  ld.param.u64 %rd5, [p_bad];
  cvta.to.global.u64 %rd2, %rd1;
  cvta.to.global.u64 %rd6, %rd5;
  mov.b32 %r10, 0x9E3779B1;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  mov.u32 %r7, %nctaid.x;
  mul.lo.s32 %r8, %r7, %r4;
VERIFY_LOOP:
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra VERIFY_DONE;
  mad.lo.s32 %r9, %r6, %r10, %r2;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r11, [%rd4];
  setp.ne.u32 %p2, %r11, %r9;
  @%p2 atom.global.add.u32 %r12, [%rd6], 1;
  add.s32 %r6, %r6, %r8;
  bra.uni VERIFY_LOOP;
VERIFY_DONE:
  ret;
}
)";

std::uint32_t pattern(std::uint32_t i, std::uint32_t seed) { return i * kPatternMultiplier + seed; }

void launch(const Api& api, CUfunction fn, std::vector<void*> params) {
  call(api.launch(fn, kBlocks, 1, 1, kThreads, 1, 1, 0, nullptr, params.data(), nullptr),
       "cuLaunchKernel");
}

// Fills `buf` (owned by `owner`, or a peer's memory mapped into `writer`) from `writer`.
void fill(const Api& api, const Gpu& writer, CUdeviceptr buf, std::uint32_t seed) {
  call(api.set_current(writer.ctx), "cuCtxSetCurrent");
  if (writer.fill != nullptr) {
    unsigned n = kWords;
    launch(api, writer.fill, {&buf, &n, &seed});
  } else {
    std::vector<std::uint32_t> host(kWords);
    for (std::uint32_t i = 0; i < kWords; ++i) host[i] = pattern(i, seed);
    call(api.to_device(buf, host.data(), kBytes), "cuMemcpyHtoD");
  }
  call(api.sync(), "cuCtxSynchronize");
}

// The words of `owner.dst` that differ from the pattern, counted on `owner`.
std::uint64_t mismatches(const Api& api, const Gpu& owner, std::uint32_t seed) {
  call(api.set_current(owner.ctx), "cuCtxSetCurrent");
  call(api.sync(),
       "cuCtxSynchronize");  // whatever wrote into owner.dst has finished, from any context
  if (std::getenv(kFaultVariable) != nullptr &&
      std::strcmp(std::getenv(kFaultVariable), "corrupt") == 0)
    call(api.memset32(owner.dst, 0, kFaultWords), "cuMemsetD32 (fault hook)");
  if (owner.verify != nullptr) {
    call(api.memset32(owner.counter, 0, 1), "cuMemsetD32");
    CUdeviceptr buf = owner.dst, counter = owner.counter;
    unsigned n = kWords;
    launch(api, owner.verify, {&buf, &n, &seed, &counter});
    call(api.sync(), "cuCtxSynchronize");
    std::uint32_t bad = 0;
    call(api.to_host(&bad, owner.counter, sizeof bad), "cuMemcpyDtoH");
    return bad;
  }
  std::vector<std::uint32_t> host(kWords);
  call(api.to_host(host.data(), owner.dst, kBytes), "cuMemcpyDtoH");
  std::uint64_t bad = 0;
  for (std::uint32_t i = 0; i < kWords; ++i) bad += host[i] != pattern(i, seed);
  return bad;
}

}  // namespace

void call(CUresult r, const char* what) {
  if (r != 0) throw CallFailed(what, r);
}

Api::Api(const DynamicLibrary& lib)
    : device_get(lib.function<cuDeviceGet_t>("cuDeviceGet")),
      bus_id(lib.function<cuDeviceGetPCIBusId_t>("cuDeviceGetPCIBusId")),
      retain(lib.function<cuDevicePrimaryCtxRetain_t>("cuDevicePrimaryCtxRetain")),
      set_current(lib.function<cuCtxSetCurrent_t>("cuCtxSetCurrent")),
      can_access(lib.function<cuDeviceCanAccessPeer_t>("cuDeviceCanAccessPeer")),
      enable_peer(lib.function<cuCtxEnablePeerAccess_t>("cuCtxEnablePeerAccess")),
      disable_peer(lib.function<cuCtxDisablePeerAccess_t>("cuCtxDisablePeerAccess")),
      sync(lib.function<cuCtxSynchronize_t>("cuCtxSynchronize")),
      alloc(lib.function<cuMemAlloc_t>("cuMemAlloc_v2")),
      memset32(lib.function<cuMemsetD32_t>("cuMemsetD32_v2")),
      copy_peer(lib.function<cuMemcpyPeer_t>("cuMemcpyPeer")),
      to_host(lib.function<cuMemcpyDtoH_t>("cuMemcpyDtoH_v2")),
      to_device(lib.function<cuMemcpyHtoD_t>("cuMemcpyHtoD_v2")),
      load_module(lib.function<cuModuleLoadData_t>("cuModuleLoadData")),
      get_function(lib.function<cuModuleGetFunction_t>("cuModuleGetFunction")),
      launch(lib.function<cuLaunchKernel_t>("cuLaunchKernel")) {}

const char* Api::missing() const {
  if (device_get == nullptr) return "cuDeviceGet";
  if (retain == nullptr) return "cuDevicePrimaryCtxRetain";
  if (set_current == nullptr) return "cuCtxSetCurrent";
  if (can_access == nullptr) return "cuDeviceCanAccessPeer";
  if (enable_peer == nullptr) return "cuCtxEnablePeerAccess";
  if (sync == nullptr) return "cuCtxSynchronize";
  if (alloc == nullptr) return "cuMemAlloc_v2";
  if (memset32 == nullptr) return "cuMemsetD32_v2";
  if (copy_peer == nullptr) return "cuMemcpyPeer";
  if (to_host == nullptr) return "cuMemcpyDtoH_v2";
  if (to_device == nullptr) return "cuMemcpyHtoD_v2";
  return nullptr;
}

void prepare(const Api& api, Gpu& g) {
  call(api.retain(&g.ctx, g.device), "cuDevicePrimaryCtxRetain");
  call(api.set_current(g.ctx), "cuCtxSetCurrent");
  call(api.alloc(&g.src, kBytes), "cuMemAlloc");
  call(api.alloc(&g.dst, kBytes), "cuMemAlloc");
  call(api.alloc(&g.counter, 4), "cuMemAlloc");
  if (api.load_module == nullptr || api.get_function == nullptr || api.launch == nullptr) {
    g.no_kernels = "this libcuda lacks the module API";
    return;
  }
  CUmodule module = nullptr;
  const CUresult r = api.load_module(&module, kPtx);
  if (r != 0) {
    g.no_kernels = "cuModuleLoadData = " + std::to_string(r) + " " + cu_result_name(r);
    return;
  }
  if (api.get_function(&g.fill, module, "p2p_fill") != 0 ||
      api.get_function(&g.verify, module, "p2p_verify") != 0) {
    g.fill = g.verify = nullptr;
    g.no_kernels = "cuModuleGetFunction failed";
  }
}

void check_pair(const Api& api, const Gpu& s, const Gpu& d, PeerCopyPair& p) {
  p.words = kWords;
  std::vector<std::string> notes;
  if (std::getenv(kFaultVariable) != nullptr)
    notes.push_back(std::string("test fault hook ") + kFaultVariable + ": " +
                    std::to_string(kFaultWords) + " words overwritten before the check");
  bool enabled_here = false;
  if (s.ctx != d.ctx) {
    int can = 0;
    call(api.can_access(&can, s.device, d.device), "cuDeviceCanAccessPeer");
    p.can_access_peer = can != 0;
    if (!can) {
      p.detail = "no peer access (cuDeviceCanAccessPeer = 0): nothing to check";
      return;
    }
    call(api.set_current(s.ctx), "cuCtxSetCurrent");
    const CUresult r = api.enable_peer(d.ctx, 0);
    if (r != 0 && r != kCuErrorPeerAccessAlreadyEnabled) call(r, "cuCtxEnablePeerAccess");
    enabled_here = r == 0;
  }
  // The copy engine: cuMemcpyPeer from the source's buffer into the destination's.
  try {
    fill(api, s, s.src, kCopySeed);
    call(api.set_current(d.ctx), "cuCtxSetCurrent");
    call(api.memset32(d.dst, 0, kWords), "cuMemsetD32");
    call(api.sync(), "cuCtxSynchronize");
    call(api.copy_peer(d.dst, d.ctx, s.src, s.ctx, kBytes), "cuMemcpyPeer");
    call(api.set_current(s.ctx), "cuCtxSetCurrent");
    call(api.sync(), "cuCtxSynchronize");
    p.copy_mismatched_words = mismatches(api, d, kCopySeed);
    p.copy_result = *p.copy_mismatched_words == 0 ? CopyResult::kOk : CopyResult::kCorrupt;
  } catch (const CallFailed& e) {
    p.copy_result = CopyResult::kError;
    notes.push_back(std::string("copy: ") + e.what());
  }
  // SM stores: a kernel on the source writes into the destination's memory.
  if (!s.no_kernels.empty() || !d.no_kernels.empty()) {
    notes.push_back("SM store not run: " + (s.no_kernels.empty() ? d.no_kernels : s.no_kernels) +
                    " (the copy was checked through the host)");
  } else {
    try {
      call(api.set_current(d.ctx), "cuCtxSetCurrent");
      call(api.memset32(d.dst, 0, kWords), "cuMemsetD32");
      call(api.sync(), "cuCtxSynchronize");
      fill(api, s, d.dst, kStoreSeed);
      p.store_mismatched_words = mismatches(api, d, kStoreSeed);
      p.store_result = *p.store_mismatched_words == 0 ? CopyResult::kOk : CopyResult::kCorrupt;
    } catch (const CallFailed& e) {
      p.store_result = CopyResult::kError;
      notes.push_back(std::string("SM store: ") + e.what());
    }
  }
  // A GPU may have peer access to at most 8 others at once: on a host of more GPUs the pairs
  // after the eighth would fail with CUDA_ERROR_TOO_MANY_PEERS, so each pair gives it back.
  if (enabled_here && api.disable_peer != nullptr && api.set_current(s.ctx) == 0)
    api.disable_peer(d.ctx);
  for (const auto& n : notes) p.detail += (p.detail.empty() ? "" : "; ") + n;
}

}  // namespace p2p::doctor::peer_copy
