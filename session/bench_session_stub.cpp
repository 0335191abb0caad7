// bench in a build without CUDA: it answers, in one line, that it is not there.
#include "common/error.hpp"
#include "session/bench_session.hpp"

namespace p2p::session {
namespace {

[[noreturn]] void not_built() {
  throw NoGpuError("this p2pcheck was built without CUDA: bench is not available");
}

}  // namespace

std::vector<BenchCaseLine> bench_cases() { not_built(); }

int run_bench_session(const BenchRequest&) { not_built(); }

doc::BenchDocument measure_for_node(const BenchSweepRequest&, const topo::TopologySnapshot&,
                                    const topo::GateDecision&, bool,
                                    const std::function<void(const nlohmann::json&)>&,
                                    std::ostream&) {
  throw NoGpuError("this p2pcheck was built without CUDA: the bench step cannot measure");
}

}  // namespace p2p::session
