#include "bench/measure/records.hpp"

#include <algorithm>
#include <map>

#include "bench/link_ceiling.hpp"
#include "bench/measure/collector.hpp"
#include "bench/stats.hpp"

namespace p2p::bench {
namespace {

std::string pci_of(const BenchContext& ctx, const Endpoint& e) {
  if (!e.is_gpu()) return "";
  const DeviceInfo* d = ctx.device(e.gpu);
  return d != nullptr ? d->pci_bus_id : "";
}

std::optional<bool> p2p_of(const BenchContext& ctx, const Endpoint& a, const Endpoint& b) {
  if (!a.is_gpu() || !b.is_gpu() || a == b) return std::nullopt;
  return ctx.peer_access(a.gpu, b.gpu) && ctx.peer_access(b.gpu, a.gpu);
}

std::string method_of(const std::vector<Lane>& lanes) {
  std::string m = to_string(lanes.front().method);
  for (const Lane& l : lanes) {
    if (to_string(l.method) != m) return "mixed";
  }
  return m;
}

doc::BandwidthResult base_record(const Case& c, const Endpoint& src, const Endpoint& dst,
                                 std::uint64_t bytes, const BenchContext& ctx) {
  doc::BandwidthResult r;
  r.case_name = c.name;
  r.src = src.label();
  r.dst = dst.label();
  r.src_pci = pci_of(ctx, src);
  r.dst_pci = pci_of(ctx, dst);
  r.bytes = bytes;
  r.p2p = p2p_of(ctx, src, dst);
  return r;
}

// Why a staged or contention figure is what it is, in words.
std::string path_note(const Case& c, const std::vector<Lane>& lanes, const BenchContext& ctx) {
  std::string note;
  for (const Lane& l : lanes) {
    if (!l.src.is_gpu() || !l.dst.is_gpu() || l.src == l.dst) continue;
    if (ctx.peer_access(l.src.gpu, l.dst.gpu) && ctx.peer_access(l.dst.gpu, l.src.gpu)) continue;
    if (!note.empty()) note += "; ";
    note +=
        "P2P unavailable " + l.src.label() + "->" + l.dst.label() + ": cudaDeviceCanAccessPeer = 0";
  }
  if (!note.empty() && c.name.rfind("contention", 0) == 0)
    note += " (the driver stages those copies through host memory)";
  return note;
}

bool failed_checks(const LaneSamples& s) { return s.bad_words > 0 || s.bad_samples > 0; }

void append_detail(doc::BandwidthResult& r, const std::string& text) {
  if (text.empty()) return;
  r.detail = r.detail.empty() ? text : r.detail + "; " + text;
}

}  // namespace

double gbps(std::uint64_t bytes, int copies, double seconds) {
  return static_cast<double>(bytes) * copies / seconds / 1e9;
}

Ceiling gpu_link_ceiling(const BenchContext& ctx, int ordinal) {
  const topo::Gpu* g = ctx.topology_gpu(ordinal);
  if (g == nullptr) return {};
  // The best link the GPU and its slot can both train, not the one negotiated when the snapshot
  // was taken: an idle GPU's link drops to a power-saving speed, and a downtrained link must
  // count against the host, not lower the bar its figures are held to.
  for (const topo::PcieLink* link : {&g->link_max, &g->link_current}) {
    if (auto v = pcie_gbps_per_direction(*link)) return {v, describe_pcie_link(*link)};
  }
  return {};
}

Ceiling lane_ceiling(const BenchContext& ctx, const Lane& lane) {
  const LinkPath path = transfer_method(lane.method).traits().link_path;
  if (path == LinkPath::kNone) return {};
  if (lane.src == lane.dst) return {};
  // Two logical GPUs of one device: the copy stays in that device's memory (except a path
  // through host memory, which still crosses its PCIe link both ways), so no link bounds it.
  if (lane.src.is_gpu() && lane.dst.is_gpu() && path == LinkPath::kDirect &&
      ctx.device(lane.src.gpu) && ctx.device(lane.dst.gpu) &&
      ctx.placement.same_device(lane.src.gpu, lane.dst.gpu)) {
    return {std::nullopt, "same device"};
  }
  if (lane.src.is_gpu() && lane.dst.is_gpu()) {
    const int links = ctx.nvlink_links(lane.src.gpu, lane.dst.gpu);
    const DeviceInfo* d = ctx.device(lane.src.gpu);
    if (links > 0 && path == LinkPath::kDirect && d != nullptr) {
      if (auto gen = nvlink_generation(d->cc_major, d->cc_minor)) {
        return {*nvlink_gbps_per_link(*gen) * links,
                "NVLink" + std::to_string(*gen) + " x" + std::to_string(links)};
      }
      return {};
    }
    const Ceiling a = gpu_link_ceiling(ctx, lane.src.gpu);
    const Ceiling b = gpu_link_ceiling(ctx, lane.dst.gpu);
    if (!a.gbps || !b.gbps) return {};
    return *a.gbps <= *b.gbps ? a : b;
  }
  const Endpoint& g = lane.src.is_gpu() ? lane.src : lane.dst;
  if (!g.is_gpu()) return {};
  return gpu_link_ceiling(ctx, g.gpu);
}

Ceiling total_ceiling(const BenchContext& ctx, const std::vector<Lane>& lanes) {
  if (lanes.empty()) return {};
  double sum = 0;
  bool nvlink = false;
  std::map<int, double> senders, receivers;  // GPU -> its own link's ceiling
  for (const Lane& l : lanes) {
    const Ceiling c = lane_ceiling(ctx, l);
    if (!c.gbps) return {};
    sum += *c.gbps;
    nvlink = nvlink || c.link.rfind("NVLink", 0) == 0;
    for (auto [ep, side] : {std::pair{l.src, &senders}, std::pair{l.dst, &receivers}}) {
      if (!ep.is_gpu()) continue;
      const Ceiling own = gpu_link_ceiling(ctx, ep.gpu);
      if (own.gbps) (*side)[ep.gpu] = *own.gbps;
    }
  }
  Ceiling out{sum, lane_ceiling(ctx, lanes.front()).link};
  if (nvlink) return out;
  // Host memory is not a bottleneck we model, so only bound when every end is a GPU.
  auto bound = [&](const std::map<int, double>& side, bool host_side) {
    if (host_side || side.empty()) return;
    double total = 0;
    for (const auto& kv : side) total += kv.second;
    out.gbps = std::min(*out.gbps, total);
  };
  const bool host_sends =
      std::any_of(lanes.begin(), lanes.end(), [](const Lane& l) { return l.src.is_host(); });
  const bool host_receives =
      std::any_of(lanes.begin(), lanes.end(), [](const Lane& l) { return l.dst.is_host(); });
  bound(senders, host_sends);
  bound(receivers, host_receives);
  return out;
}

std::vector<doc::BandwidthResult> bandwidth_records(const Case& c, const Route& route,
                                                    const std::vector<Lane>& lanes,
                                                    std::uint64_t bytes, const Measured& m,
                                                    const BenchContext& ctx) {
  std::vector<doc::BandwidthResult> out;
  const std::string note = path_note(c, lanes, ctx);
  std::uint64_t all_bad = 0;
  std::string failures;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const Lane& l = lanes[i];
    const LaneSamples& s = m.lanes.at(i);
    doc::BandwidthResult r = base_record(c, l.src, l.dst, bytes, ctx);
    r.part = lanes.size() == 1 ? "" : "dir";
    r.issued_by = "gpu" + std::to_string(l.issuer);
    r.method = to_string(l.method);
    r.copies_per_sample = m.copies_per_sample;
    for (double sec : s.seconds) r.samples_gbps.push_back(gbps(bytes, m.copies_per_sample, sec));
    const Ceiling ceil = lane_ceiling(ctx, l);
    r.ceiling_gbps = ceil.gbps;
    r.ceiling_link = ceil.link;
    refresh_statistics(r);
    r.bad_words = s.bad_words;
    if (failed_checks(s)) {
      r.status = doc::FigureStatus::kFailed;
      r.detail = transfer_method(l.method).verification_failure(s);
      all_bad += s.bad_words;
      failures += (failures.empty() ? "" : ", ") + l.src.label() + "->" + l.dst.label();
    }
    if (lanes.size() == 1) append_detail(r, note);
    out.push_back(std::move(r));
  }
  if (lanes.size() > 1) {
    doc::BandwidthResult sum = base_record(c, route.src, route.dst, bytes, ctx);
    sum.part = "sum";
    sum.method = method_of(lanes);
    sum.copies_per_sample = m.copies_per_sample;
    for (double sec : m.total_seconds) {
      sum.samples_gbps.push_back(
          gbps(bytes, m.copies_per_sample * static_cast<int>(lanes.size()), sec));
    }
    const Ceiling ceil = total_ceiling(ctx, lanes);
    sum.ceiling_gbps = ceil.gbps;
    sum.ceiling_link = ceil.link;
    refresh_statistics(sum);
    sum.bad_words = all_bad;
    if (!failures.empty()) {
      sum.status = doc::FigureStatus::kFailed;
      sum.detail = "verification failed on " + failures;
    }
    append_detail(sum, note);
    out.push_back(std::move(sum));
  }
  return out;
}

std::vector<doc::BandwidthResult> unmeasured_bandwidth_records(
    const Case& c, const Route& route, const std::vector<Lane>& lanes, std::uint64_t bytes,
    doc::FigureStatus status, const std::string& detail, const BenchContext& ctx) {
  std::vector<doc::BandwidthResult> out;
  auto add = [&](const Endpoint& s, const Endpoint& d, const std::string& part,
                 const std::string& issuer, const Ceiling& ceil, const std::string& method) {
    doc::BandwidthResult r = base_record(c, s, d, bytes, ctx);
    r.part = part;
    r.issued_by = issuer;
    r.method = method;
    r.ceiling_gbps = ceil.gbps;
    r.ceiling_link = ceil.link;
    r.status = status;
    r.detail = detail;
    out.push_back(std::move(r));
  };
  for (const Lane& l : lanes) {
    add(l.src, l.dst, lanes.size() == 1 ? "" : "dir", "gpu" + std::to_string(l.issuer),
        lane_ceiling(ctx, l), to_string(l.method));
  }
  if (lanes.size() > 1)
    add(route.src, route.dst, "sum", "", total_ceiling(ctx, lanes), method_of(lanes));
  return out;
}

doc::LatencyResult latency_record(const Case& c, const Route& route, const Measured& m,
                                  const BenchContext& ctx) {
  doc::LatencyResult r = unmeasured_latency_record(c, route, doc::FigureStatus::kOk, "", ctx);
  r.loads_per_sample = m.loads_per_sample;
  r.stride_bytes = m.stride_bytes;
  r.samples_ns = m.latency_ns;
  if (!r.samples_ns.empty()) {
    const SampleStats st = summarize(r.samples_ns);
    r.median_ns = st.median;
    r.min_ns = st.min;
    r.max_ns = st.max;
    r.spread_pct = st.spread * 100;
  }
  if (!m.lanes.empty() && failed_checks(m.lanes[0])) {
    r.status = doc::FigureStatus::kFailed;
    r.detail = transfer_method(c.lanes(route).at(0).method).verification_failure(m.lanes[0]);
  }
  return r;
}

doc::LatencyResult unmeasured_latency_record(const Case& c, const Route& route,
                                             doc::FigureStatus status, const std::string& detail,
                                             const BenchContext& ctx) {
  doc::LatencyResult r;
  r.case_name = c.name;
  r.src = route.src.label();
  r.dst = route.dst.label();
  r.src_pci = pci_of(ctx, route.src);
  r.dst_pci = pci_of(ctx, route.dst);
  r.p2p = p2p_of(ctx, route.src, route.dst);
  r.status = status;
  r.detail = detail;
  return r;
}

}  // namespace p2p::bench
