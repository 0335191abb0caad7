// What bench and nccl make of the isolated cuInit probe they run before touching the driver.
#include <gtest/gtest.h>

#include "common/exit_codes.hpp"
#include "doctor/preflight.hpp"

namespace {

using namespace p2p::doctor;

CudaProbe completed(int init, std::optional<int> devices) {
  CudaProbe p;
  p.status = "completed";
  p.init_result = init;
  p.device_count = devices;
  return p;
}

TEST(Preflight, AHealthyDriverPasses) { EXPECT_FALSE(preflight_failure(completed(0, 2)).has_value()); }

TEST(Preflight, AHangIsExitFiveAndSaysWhereItStopped) {
  CudaProbe p;
  p.status = "timed_out";
  p.detail = "no result after 45 s (stopped inside cuInit)";
  const auto f = preflight_failure(p);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitHang);
  EXPECT_NE(f->message.find("the CUDA driver hung (no result after 45 s (stopped inside cuInit))"), std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("p2pcheck doctor"), std::string::npos) << f->message;
  EXPECT_EQ(f->message.find('\n'), std::string::npos);
}

TEST(Preflight, ACrashIsExitThreeAndNamesTheSignal) {
  CudaProbe p;
  p.status = "crashed";
  p.detail = "SIGSEGV (stopped inside cuInit)";
  const auto f = preflight_failure(p);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(f->message.find("crashed (SIGSEGV (stopped inside cuInit))"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("kernel log"), std::string::npos) << f->message;
}

TEST(Preflight, AFailedCuInitCarriesTheDoctorsExplanation) {
  const auto f = preflight_failure(completed(100, std::nullopt));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(f->message.find("cuInit failed: CUDA_ERROR_NO_DEVICE"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << "the doctor's explanation: " << f->message;
}

TEST(Preflight, NoDriverAndNoDevicesAreExitThree) {
  CudaProbe missing;
  missing.status = "library_missing";
  missing.detail = "libcuda.so.1: cannot open shared object file";
  const auto m = preflight_failure(missing);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(m->message.find("cannot open shared object file"), std::string::npos) << m->message;

  const auto none = preflight_failure(completed(0, 0));
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(none->message.find("0 GPUs"), std::string::npos) << none->message;
}

TEST(Preflight, AChildThatFailedOtherwiseIsNotTakenForHealthy) {
  CudaProbe p;
  p.status = "failed";
  p.detail = "exit status 3";
  const auto f = preflight_failure(p);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exit_code, p2p::kExitNoGpu);
  EXPECT_NE(f->message.find("exit status 3"), std::string::npos) << f->message;
}

}  // namespace
