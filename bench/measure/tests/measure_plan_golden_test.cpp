// Pins everything the measuring code decides without a GPU, for every case on three hosts:
// routes, waivers, sizes, the batch layout, peer mappings, the SM split, each lane's method
// word and ceiling, and the records built from fixed measurements (measured, failed
// verification, waived). The text must equal bench/measure/tests/golden/measure_plan.txt byte for
// byte, so a change in how a transfer method plans or records shows up as a diff of that file.
// P2P_UPDATE_GOLDEN=1 rewrites it instead, for review.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "bench/measure/batch_plan.hpp"
#include "bench/measure/cases.hpp"
#include "bench/measure/lane_setup.hpp"
#include "bench/measure/records.hpp"
#include "bench/measure/sweep_plan.hpp"
#include "common/file_io.hpp"
#include "topology/snapshot_json.hpp"

namespace {

using namespace p2p::bench;
namespace doc = p2p::doc;

const std::vector<std::uint64_t> kSizes = {4096, 64ull << 20, 1ull << 30};

// The GPUs of a kept topology golden as CUDA devices (compute capability 9.0), with `peer`
// answering cudaDeviceCanAccessPeer between two of them.
BenchContext host_from(const std::string& golden, std::vector<int> gpus,
                       const std::function<bool(int, int)>& peer) {
  BenchContext ctx;
  const std::string path = std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/" + golden;
  ctx.topology = p2p::topo::snapshot_from_json(p2p::read_json_file(path), path);
  const std::size_t n = ctx.topology.gpus.size();
  for (std::size_t i = 0; i < n; ++i) {
    DeviceInfo d;
    d.ordinal = static_cast<int>(i);
    d.pci_bus_id = ctx.topology.gpus[i].pci_bus_id;
    d.cc_major = 9;
    ctx.inventory.devices.push_back(d);
    ctx.inventory.can_access_peer.emplace_back();
    for (std::size_t j = 0; j < n; ++j)
      ctx.inventory.can_access_peer.back().push_back(
          i != j && peer(static_cast<int>(i), static_cast<int>(j)));
  }
  ctx.gpus = std::move(gpus);
  return ctx;
}

// Fixed figures: lane i takes (i + 1) x 10, 12, 11 ms per sample; lane 1 of every other route
// fails verification once.
Measured fixed_measurement(std::size_t lanes, std::size_t route_index) {
  Measured m;
  m.copies_per_sample = 4;
  m.lanes.resize(lanes);
  for (std::size_t i = 0; i < lanes; ++i) {
    const double k = static_cast<double>(i + 1);
    m.lanes[i].seconds = {0.010 * k, 0.012 * k, 0.011 * k};
    m.lanes[i].verified_samples = 4;
    m.lanes[i].verified_by = "gpu" + std::to_string(i);
    if (i == 1 && route_index % 2 == 1) {
      m.lanes[i].bad_words = 7;
      m.lanes[i].bad_samples = 1;
    }
  }
  m.total_seconds = {0.021, 0.025, 0.023};
  m.latency_ns = {900.5, 910.25, 905};
  m.loads_per_sample = 50000;
  m.stride_bytes = 128;
  if (route_index % 2 == 1 && lanes == 1) m.lanes[0].bad_samples = 1;
  return m;
}

std::string ceiling_text(const Ceiling& c) {
  std::ostringstream o;
  o << (c.gbps ? nlohmann::json(*c.gbps).dump() : "none") << " '" << c.link << "'";
  return o.str();
}

void describe_lanes(std::ostream& out, const BenchContext& ctx, const std::vector<Lane>& lanes) {
  for (const Lane& l : lanes) {
    out << "  lane " << lane_name(l) << " by gpu" << l.issuer << " " << to_string(l.method)
        << " verified by gpu" << verifying_gpu(l) << " ceiling "
        << ceiling_text(lane_ceiling(ctx, l)) << "\n";
  }
  if (lanes.size() > 1)
    out << "  total ceiling " << ceiling_text(total_ceiling(ctx, lanes)) << "\n";
  const auto mappings = plan_peer_mappings(lanes, ctx.placement, [&](int device, int peer) {
    return static_cast<bool>(ctx.inventory.can_access_peer.at(static_cast<std::size_t>(device))
                                 .at(static_cast<std::size_t>(peer)));
  });
  out << "  peer mappings";
  for (const auto& [dev, peer] : mappings) out << " " << dev << ">" << peer;
  out << "\n";
}

// The batch layout at `bytes`, without / with each lane under load.
void describe_plan(std::ostream& out, const BenchContext& ctx, const std::vector<Lane>& lanes,
                   std::uint64_t bytes) {
  const BatchPlan p = plan_batch(lanes, bytes, 0, false);
  const BatchPlan u = plan_batch(lanes, bytes, 0, true);
  out << "  plan " << bytes << ": copies " << p.copies << "/" << u.copies << " fused "
      << p.fused_pair << u.fused_pair << " padded " << p.padded << u.padded << " lead-in "
      << u.lead_in_copies << " tail " << u.tail_copies << " sm kernels";
  for (const auto& [dev, n] : sm_kernels_per_device(lanes, p, ctx.placement))
    out << " " << dev << ":" << n;
  out << "\n";
}

std::string number_text(const std::optional<double>& v) {
  return v ? nlohmann::json(*v).dump() : "-";
}

// A record in short: who, how, the ceiling, the outcome, and the figure where there is one.
std::string record_text(const doc::BandwidthResult& r) {
  std::ostringstream o;
  o << "  " << doc::to_string(r.status) << " " << (r.part.empty() ? "-" : r.part) << " " << r.src
    << "->" << r.dst << " by '" << r.issued_by << "' " << r.method << " p2p "
    << (r.p2p ? (*r.p2p ? "yes" : "no") : "-") << " ceiling "
    << ceiling_text({r.ceiling_gbps, r.ceiling_link}) << " median " << number_text(r.median_gbps)
    << " achieved " << number_text(r.achieved_pct) << " detail '" << r.detail << "'\n";
  return o.str();
}

// Records at the route's largest size (the figures' arithmetic does not depend on it): when
// `full`, a case's first route's in full; the others in short.
void describe_records(std::ostream& out, const Case& c, const Route& route,
                      const std::vector<Lane>& lanes, std::uint64_t bytes, std::size_t k,
                      const BenchContext& ctx, bool full) {
  const Measured m = fixed_measurement(lanes.size(), k);
  full = full && k == 0;
  if (c.metric == Metric::kBandwidth) {
    for (const auto& r : bandwidth_records(c, route, lanes, bytes, m, ctx))
      out << (full ? "  record " + nlohmann::json(r).dump() + "\n" : record_text(r));
    for (const auto& r : unmeasured_bandwidth_records(c, route, lanes, bytes,
                                                      doc::FigureStatus::kWaived, "why", ctx))
      out << record_text(r);
  } else {
    const doc::LatencyResult r = latency_record(c, route, m, ctx);
    if (full) out << "  record " << nlohmann::json(r).dump() << "\n";
    const doc::LatencyResult w =
        unmeasured_latency_record(c, route, doc::FigureStatus::kWaived, "why", ctx);
    for (const doc::LatencyResult* x : {&r, &w}) {
      out << "  " << doc::to_string(x->status) << " " << x->src << "->" << x->dst << " p2p "
          << (x->p2p ? (*x->p2p ? "yes" : "no") : "-") << " median " << number_text(x->median_ns)
          << " detail '" << x->detail << "'\n";
    }
  }
}

void describe_case(std::ostream& out, const Case& c, const BenchContext& ctx, bool full) {
  const std::vector<Route> routes = routes_for(c.shape, ctx.gpus);
  const auto sizes = plan_route_sizes(ctx, routes, kSizes, false);
  std::vector<std::vector<Lane>> route_lanes;
  for (const Route& r : routes) route_lanes.push_back(c.lanes(r));
  const std::vector<bool> measured = routes_to_measure(ctx, route_lanes, false);
  for (std::size_t k = 0; k < routes.size(); ++k) {
    const Route& route = routes[k];
    const auto waiver = c.waive(ctx, route);
    out << c.name << " " << route.label() << " (" << route_kind(ctx, route) << ")"
        << (measured[k] ? "" : " not measured") << " waiver: " << waiver.value_or("none") << "\n";
    describe_lanes(out, ctx, route_lanes[k]);
    const std::vector<std::uint64_t> route_sizes =
        c.metric == Metric::kBandwidth ? sizes[k] : std::vector<std::uint64_t>{0};
    for (std::uint64_t bytes : route_sizes) {
      out << " "
          << benchmark_name(c, route,
                            c.metric == Metric::kBandwidth ? std::optional<std::uint64_t>(bytes)
                                                           : std::nullopt)
          << "\n";
      if (c.metric == Metric::kBandwidth) describe_plan(out, ctx, route_lanes[k], bytes);
    }
    describe_records(out, c, route, route_lanes[k], route_sizes.back(), k, ctx, full);
  }
}

std::string describe_host(const std::string& title, const BenchContext& ctx, bool full) {
  std::ostringstream out;
  out << "== " << title << "\n";
  const std::string note = repeated_host_routes_note(ctx, false);
  if (!note.empty()) out << "note: " << note << "\n";
  for (const Case& c : all_cases()) describe_case(out, c, ctx, full);
  return out.str();
}

std::string describe_all() {
  std::string text;
  // NVSwitch, peer access everywhere except gpu1 -> gpu2 (one way).
  text += describe_host(
      "hgx-nvswitch, gpus 0 1 2, no peer access gpu1->gpu2",
      host_from("hgx-nvswitch.json", {0, 1, 2}, [](int a, int b) { return !(a == 1 && b == 2); }),
      true);
  // PCIe across two sockets, no peer access at all.
  text += describe_host("rtxpro6000-lxc, gpus 0 4, no peer access",
                        host_from("rtxpro6000-lxc.json", {0, 4}, [](int, int) { return false; }),
                        false);
  // Three logical GPUs on devices 0 and 4 (peer access between them): 0 and 2 share device 0.
  BenchContext logical =
      host_from("rtxpro6000-lxc.json", {}, [](int a, int b) { return a + b == 4; });
  logical.placement = place_logical_gpus(3, {0, 4});
  logical.gpus = gpu_ids(logical.placement, {0, 4});
  text += describe_host("rtxpro6000-lxc, 3 logical GPUs on devices 0 and 4", logical, false);
  return text;
}

TEST(MeasurePlanGolden, EveryCaseOnThreeHostsMatches) {
  const std::string actual = describe_all();
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/bench/measure/tests/golden/measure_plan.txt";
  const char* update = std::getenv("P2P_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    p2p::write_text_file_atomically(path, actual);
    std::cout << "updated " << path << "\n";
    return;
  }
  const auto expected = p2p::try_read_text_file(path);
  ASSERT_TRUE(expected) << path << " is missing: run with P2P_UPDATE_GOLDEN=1 and review it";
  // Line by line first, for a failure that names the first difference.
  std::istringstream a(actual), e(*expected);
  std::string la, le;
  for (int line = 1; std::getline(e, le); ++line) {
    ASSERT_TRUE(std::getline(a, la)) << "output ends before line " << line << ": " << le;
    ASSERT_EQ(la, le) << "line " << line << "; regenerate with P2P_UPDATE_GOLDEN=1 if intended";
  }
  EXPECT_EQ(actual, *expected);
}

}  // namespace
