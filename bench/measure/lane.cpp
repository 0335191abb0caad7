#include "bench/measure/lane.hpp"

namespace p2p::bench {

std::string to_string(Method m) {
  switch (m) {
    case Method::kCopyEngine: return "copy_engine";
    case Method::kSm: return "sm";
    case Method::kStaged: return "staged";
    case Method::kPointerChase: return "pointer_chase";
  }
  return "unknown";
}

int verifying_gpu(const Lane& lane) { return lane.dst.is_gpu() ? lane.dst.gpu : lane.issuer; }

}  // namespace p2p::bench
