// Which sizes each (case, route) is measured at. The matrices need one size per route; a size
// sweep tells how a path ramps up, and routes of one kind of path ramp up alike. So by default
// every route is measured at the largest size, and the whole sweep runs for one representative
// route per kind of path: the first GPU pair of each topology class (NV#, PIX, ..., SYS, or
// "same device" between logical GPUs), the first GPU of each NUMA node for host links and
// copies within a GPU, and the first route of each contention pattern. On 8 GPUs that is a few
// hundred figures instead of thousands. `--full` (or an explicit `--sizes`) sweeps every route.
// Pure: a function of the context and the routes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/cases.hpp"
#include "bench/context.hpp"

namespace p2p::bench {

// The kind of path a route takes: "PIX", "NODE", "NV12", "same device", "numa0", "ring", ...
std::string route_kind(const BenchContext& ctx, const Route& route);

// The sizes of each of `routes` (one case's routes, in order): `sizes` for the first route of
// each kind (or every route when `full`), the largest of `sizes` for the others.
std::vector<std::vector<std::uint64_t>> plan_route_sizes(const BenchContext& ctx, const std::vector<Route>& routes,
                                                         const std::vector<std::uint64_t>& sizes, bool full);

}  // namespace p2p::bench
