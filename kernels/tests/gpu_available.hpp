// GPU tests skip (never pass silently) where no GPU is usable, saying why.
#pragma once

#include <string>

namespace p2p::kernels::testing {

// "" when at least one CUDA device is usable, else the reason (for GTEST_SKIP).
std::string why_no_gpu();

}  // namespace p2p::kernels::testing

#define P2P_REQUIRE_GPU()                                          \
  do {                                                             \
    const std::string why = ::p2p::kernels::testing::why_no_gpu(); \
    if (!why.empty()) GTEST_SKIP() << "no usable GPU: " << why;    \
  } while (0)
