#include "nccl/run/nccl_api.hpp"

#include <gtest/gtest.h>

#include "nccl/run/measure.hpp"

namespace p2p::nccl {
namespace {

TEST(NcclApi, MissingLibraryIsANoGpuErrorNamingIt) {
  try {
    load_nccl_api("libp2pcheck-no-nccl.so.2");
    FAIL() << "expected NoGpuError";
  } catch (const NoGpuError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot load NCCL (libp2pcheck-no-nccl.so.2)"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST(NcclApi, ALibraryWithoutNcclSymbolsNamesTheFirstMissingOne) {
  try {
    load_nccl_api("libm.so.6");
    FAIL() << "expected NoGpuError";
  } catch (const NoGpuError& e) {
    EXPECT_NE(std::string(e.what()).find("libm.so.6 has no symbol ncclGetVersion"),
              std::string::npos)
        << e.what();
  }
}

TEST(NcclCheck, FailureBecomesApiErrorWithNameAndCallSite) {
  EXPECT_NO_THROW(P2P_CHECK(ncclSuccess));
  try {
    P2P_CHECK(ncclSystemError);
    FAIL() << "expected ApiError";
  } catch (const ApiError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code, static_cast<int>(ncclSystemError));
    EXPECT_NE(what.find("NCCL error 2 (ncclSystemError"), std::string::npos) << what;
    EXPECT_NE(what.find("nccl_api_test.cpp"), std::string::npos) << what;
  }
  EXPECT_STREQ(nccl_result_name(ncclRemoteError), "ncclRemoteError");
  EXPECT_STREQ(nccl_result_name(static_cast<ncclResult_t>(77)), "unknown ncclResult_t");
}

TEST(BufferAllocator, NamesAreTheOptionValues) {
  EXPECT_EQ(parse_buffer_allocator("auto"), BufferAllocator::kAuto);
  EXPECT_EQ(parse_buffer_allocator("ncclMemAlloc"), BufferAllocator::kNcclMemAlloc);
  EXPECT_EQ(parse_buffer_allocator("cudaMalloc"), BufferAllocator::kCudaMalloc);
  try {
    parse_buffer_allocator("malloc");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--buffers: `malloc` is not auto, ncclMemAlloc or cudaMalloc");
  }
}

}  // namespace
}  // namespace p2p::nccl
