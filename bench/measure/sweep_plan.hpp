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

#include "bench/measure/cases.hpp"
#include "bench/measure/context.hpp"
#include "bench/measure/lane.hpp"

namespace p2p::bench {

// The kind of path a route takes: "PIX", "NODE", "NV12", "same device", "numa0", "ring", ...
std::string route_kind(const BenchContext& ctx, const Route& route);

// The sizes of each of `routes` (one case's routes, in order): `sizes` for the first route of
// each kind (or every route when `full`), the largest of `sizes` for the others.
std::vector<std::vector<std::uint64_t>> plan_route_sizes(const BenchContext& ctx,
                                                         const std::vector<Route>& routes,
                                                         const std::vector<std::uint64_t>& sizes,
                                                         bool full);

// Which of `routes` (one case's routes, with the lanes of each) to measure. Logical GPUs of one
// device share its link to the host, so a route through host memory (to or from the host, a GPU
// loading host memory, a copy staged through it) taken from another logical GPU of the same
// device is the same link measured again: such a route is measured for the first of them only,
// unless `full`. Every route between GPUs' own memories is measured, and every route of a run
// without logical GPUs (no two GPUs there share a device).
std::vector<bool> routes_to_measure(const BenchContext& ctx,
                                    const std::vector<std::vector<Lane>>& lanes, bool full);

// "host routes of logical GPUs on one device are measured once per device, ..." for a run of
// logical GPUs where `routes_to_measure` leaves some out; "" otherwise.
std::string repeated_host_routes_note(const BenchContext& ctx, bool full);

}  // namespace p2p::bench
