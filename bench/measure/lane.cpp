#include "bench/measure/lane.hpp"

namespace p2p::bench {

std::string to_string(Method m) { return transfer_method(m).traits().word; }

int verifying_gpu(const Lane& lane) { return lane.dst.is_gpu() ? lane.dst.gpu : lane.issuer; }

}  // namespace p2p::bench
