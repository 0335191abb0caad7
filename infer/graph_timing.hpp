// The latency of single all-reduce calls as serving engines issue them in decode: captured in
// CUDA graphs, back to back. Each graph holds up to `per_graph` calls with an event recorded
// between every two of them (as external event nodes, which keep their timestamps inside a
// graph), so every call gets its own GPU time; the graphs are launched one after another until
// `calls` calls have run. An event between calls costs the GPU about half a microsecond, which
// every call carries alike; the figures are for comparing groups and P2P on/off, as they are.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "nccl/collective.hpp"
#include "nccl/op_spec.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/measure.hpp"

namespace p2p::infer {

// Microseconds of every call, the slowest local rank's per call, in call order. nullopt when a
// launch missed `timeout` (the clique is then aborted). ApiError for a failed CUDA/NCCL call.
std::optional<std::vector<double>> time_calls_in_graphs(nccl::Clique& clique,
                                                        nccl::RankBuffers& buffers,
                                                        const nccl::OpSpec& op,
                                                        const nccl::CollectiveShape& shape,
                                                        int calls, int per_graph,
                                                        std::chrono::duration<double> timeout);

}  // namespace p2p::infer
