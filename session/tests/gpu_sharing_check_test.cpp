// Which GPUs the sharing check locks and looks at: the CUDA ordinals asked for, as PCI bus ids.
#include "session/gpu_sharing_check.hpp"

#include <gtest/gtest.h>

namespace {

using p2p::session::measured_bus_ids;

const std::vector<std::string> kAll = {"0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0"};

TEST(MeasuredBusIds, NoOrdinalsMeansEveryGpu) { EXPECT_EQ(measured_bus_ids(kAll, {}), kAll); }

TEST(MeasuredBusIds, OrdinalsInTheOrderAskedOthersIgnored) {
  EXPECT_EQ(measured_bus_ids(kAll, {2, 0}),
            (std::vector<std::string>{"0000:3a:00.0", "0000:18:00.0"}));
  // An ordinal CUDA does not have is the device check's to refuse, not the lock's.
  EXPECT_EQ(measured_bus_ids(kAll, {1, 7, -1}), (std::vector<std::string>{"0000:2a:00.0"}));
}

}  // namespace
