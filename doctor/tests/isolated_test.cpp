// The child-process probe runner: results, crashes, hangs and failures all come back as data.
#include "doctor/collect/isolated.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>
#include <thread>

#include "doctor/collect/probes.hpp"

namespace {

using namespace p2p::doctor;

TEST(Isolated, LastCompleteLineIsTheResult) {
  const auto r = run_isolated(
      [](const Emit& emit) {
        emit("first");
        emit("second\nwith a newline");
      },
      10000);
  EXPECT_EQ(r.status, p2p::IsolatedStatus::kCompleted);
  EXPECT_EQ(r.output, "second with a newline");
}

TEST(Isolated, ACrashKeepsWhatWasReportedBeforeIt) {
  const auto r = run_isolated(
      [](const Emit& emit) {
        emit("{\"step\": 1}");
        std::raise(SIGSEGV);
      },
      10000);
  EXPECT_EQ(r.status, p2p::IsolatedStatus::kCrashed);
  EXPECT_EQ(r.detail, "SIGSEGV");
  EXPECT_EQ(r.output, "{\"step\": 1}");
}

TEST(Isolated, AHangIsKilledAtTheDeadline) {
  const auto r = run_isolated(
      [](const Emit& emit) {
        emit("before the hang");
        std::this_thread::sleep_for(std::chrono::seconds(60));
      },
      300);
  EXPECT_EQ(r.status, p2p::IsolatedStatus::kTimedOut);
  EXPECT_EQ(r.output, "before the hang");  // so the record can say where it hung
  EXPECT_NE(r.detail.find("no result after"), std::string::npos) << r.detail;
}

TEST(Isolated, AnExceptionInTheChildIsAFailedProbe) {
  const auto r = run_isolated([](const Emit&) { throw std::runtime_error("boom"); }, 10000);
  EXPECT_EQ(r.status, p2p::IsolatedStatus::kFailed);
  EXPECT_EQ(r.detail, "exit status 3");
}

TEST(ProbeRecords, ACrashInsideCuInitIsReportedWithWhereItStopped) {
  IsolatedResult r;
  r.status = p2p::IsolatedStatus::kCrashed;
  r.detail = "SIGSEGV";
  r.output =
      R"({"status":"completed","detail":"stopped inside cuInit","library_path":"/usr/lib/libcuda.so.590.48.01",)"
      R"("driver_version":13010,"init_result":null,"device_count":null,"devices":[]})";
  const CudaProbe p = cuda_probe_from(r);
  EXPECT_EQ(p.status, ProbeStatus::kCrashed);
  EXPECT_EQ(p.detail, "SIGSEGV (stopped inside cuInit)");
  EXPECT_EQ(p.library_path, std::optional<std::string>("/usr/lib/libcuda.so.590.48.01"));
  EXPECT_EQ(p.driver_version, std::optional<int>(13010));
  r.status = p2p::IsolatedStatus::kCompleted;
  r.output = "not json";
  EXPECT_EQ(cuda_probe_from(r).status, ProbeStatus::kFailed);
  r.output = "";
  EXPECT_EQ(nvml_probe_from(r).status, ProbeStatus::kFailed);
}

}  // namespace
