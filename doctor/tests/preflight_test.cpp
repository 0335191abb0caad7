// What bench and nccl make of the isolated cuInit probe they run before touching the driver.
#include "doctor/preflight.hpp"

#include <gtest/gtest.h>

#include "common/exit_codes.hpp"

namespace {

using namespace p2p::doctor;

CudaProbe completed(int init, std::optional<int> devices) {
  CudaProbe p;
  p.status = ProbeStatus::kCompleted;
  p.init_result = init;
  p.device_count = devices;
  return p;
}

TEST(Preflight, AHealthyDriverPasses) {
  EXPECT_FALSE(preflight_failure(completed(0, 2)).has_value());
}

TEST(Preflight, AHangIsExitFiveAndSaysWhereItStopped) {
  CudaProbe p;
  p.status = ProbeStatus::kTimedOut;
  p.detail = "no result after 45 s (stopped inside cuInit)";
  const auto f = preflight_failure(p);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitHang);
  EXPECT_NE(f->message.find("the CUDA driver hung (no result after 45 s (stopped inside cuInit))"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("p2pcheck doctor"), std::string::npos) << f->message;
  EXPECT_EQ(f->message.find('\n'), std::string::npos);
}

TEST(Preflight, ACrashIsExitThreeAndNamesTheSignal) {
  CudaProbe p;
  p.status = ProbeStatus::kCrashed;
  p.detail = "SIGSEGV (stopped inside cuInit)";
  const auto f = preflight_failure(p);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(f->message.find("crashed (SIGSEGV (stopped inside cuInit))"), std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("kernel log"), std::string::npos) << f->message;
}

// These the process meets safely itself, and bench's own check names them
// (bench/measure/no_gpu.hpp).
TEST(Preflight, NoDriverACuInitErrorAndNoDeviceAreLeftToTheInProcessCheck) {
  CudaProbe missing;
  missing.status = ProbeStatus::kLibraryMissing;
  missing.detail = "libcuda.so.1: cannot open shared object file";
  EXPECT_FALSE(preflight_failure(missing).has_value());
  EXPECT_FALSE(preflight_failure(completed(100, std::nullopt)).has_value());
  EXPECT_FALSE(preflight_failure(completed(0, 0)).has_value());
}

TEST(Preflight, AChildThatFailedOtherwiseIsNotTakenForHealthy) {
  CudaProbe p;
  p.status = ProbeStatus::kFailed;
  p.detail = "exit status 3";
  const auto f = preflight_failure(p);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(f->message.find("exit status 3"), std::string::npos) << f->message;
}

}  // namespace
