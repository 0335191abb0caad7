#include "vm/host_capture.hpp"

#include <algorithm>
#include <map>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/text.hpp"
#include "common/text_lines.hpp"
#include "doctor/derived.hpp"
#include "import/import_document.hpp"
#include "topology/nvidia_smi_topo.hpp"

namespace p2p::vm {

namespace {

// p2pcheck's own documents: doctor facts (the host's driver and peer copy per pair) and bench
// results (every copy verified, unless `import` wrote them from another tool's output).
HostCapture json_capture(const std::string& text, const std::string& source) {
  const nlohmann::json j = parse_json_text(text, source);
  // A schema that is not a string is no document p2pcheck wrote (nlohmann's value() would throw
  // a type error naming nothing).
  const std::string schema = j.is_object() && j.contains("schema") && j["schema"].is_string()
                                 ? j["schema"].get<std::string>()
                                 : "";
  HostCapture c;
  c.source = source;
  if (schema == "p2pcheck.doctor.facts") {
    c.tool = "p2pcheck doctor facts";
    try {
      c.facts = doctor::facts_from_json(j);
    } catch (const InputError& e) {
      throw InputError(source + ": " + e.what());
    }
    return c;
  }
  const doc::BenchDocument d = doc::bench_document_from_json(j, source);
  if (std::any_of(d.gpus.begin(), d.gpus.end(), [](const auto& g) { return g.logical_gpu; }))
    throw InputError(source +
                     ": a p2pcheck run over logical GPUs sharing one device: it proves no P2P "
                     "between real GPUs");
  c.tool = d.written_by == "import" ? "p2pcheck import" : "p2pcheck " + d.written_by;
  c.data_verified = d.written_by != "import";
  for (const auto& g : d.gpus) {
    c.bdfs.push_back(g.pci_bus_id);
    c.names.push_back(g.name);
  }
  c.access = d.p2p_access;
  c.bandwidth = d.bandwidth;
  return c;
}

HostCapture section_capture(const import::ImportedFigures& f, const std::string& source) {
  HostCapture c;
  c.source = source;
  c.tool = f.file.tool.empty() ? "nvidia-smi topo" : f.file.tool;
  for (const auto& g : f.gpus) {
    c.bdfs.push_back(g.pci_bus_id);
    c.names.push_back(g.name);
  }
  c.access = f.p2p_access;
  c.bandwidth = f.bandwidth;
  // simpleP2P checks the data its kernel wrote through the peer mapping, when it got that far.
  const auto& notes = f.file.notes;
  c.data_verified = f.file.tool == "simpleP2P" &&
                    std::none_of(notes.begin(), notes.end(), [](const std::string& n) {
                      return n.find("ends before") != std::string::npos;
                    });
  return c;
}

bool gpu_figure(const doc::BandwidthResult& b) {
  return b.src != b.dst && b.src.rfind("gpu", 0) == 0 && b.dst.rfind("gpu", 0) == 0 &&
         b.src.size() > 3 && b.dst.size() > 3 &&
         b.src.find_first_not_of("0123456789", 3) == std::string::npos &&
         b.dst.find_first_not_of("0123456789", 3) == std::string::npos;
}

bool holds_evidence(const HostCapture& c) {
  return c.facts || !c.status.empty() || c.access.size() >= 2 ||
         std::any_of(c.bandwidth.begin(), c.bandwidth.end(), gpu_figure);
}

std::size_t gpu_number(const std::string& name) { return std::stoul(name.substr(3)); }

std::string bus_id(const std::string& bdf) { return bdf.empty() ? "" : doctor::normalize_bdf(bdf); }

// The capture's GPU numbers -> the view's indexes: by bus id where printed, else by number.
std::vector<std::size_t> map_gpus(HostView& v, const HostCapture& c) {
  std::size_t n = std::max(c.bdfs.size(), c.access.size());
  for (const auto& b : c.bandwidth)
    if (gpu_figure(b)) n = std::max({n, gpu_number(b.src) + 1, gpu_number(b.dst) + 1});
  std::vector<std::size_t> to(n);
  bool by_number = false;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string bdf = k < c.bdfs.size() ? bus_id(c.bdfs[k]) : "";
    const auto it = std::find_if(v.gpus.begin(), v.gpus.end(),
                                 [&](const HostGpu& g) { return !bdf.empty() && g.bdf == bdf; });
    if (it != v.gpus.end()) {
      to[k] = static_cast<std::size_t>(it - v.gpus.begin());
    } else if (!bdf.empty() && std::any_of(v.gpus.begin(), v.gpus.end(),
                                           [](const HostGpu& g) { return !g.bdf.empty(); })) {
      throw InputError(c.source + ": its GPU" + std::to_string(k) + " (" + bdf +
                       ") is not in the topology: the capture and the topology must come from "
                       "one host");
    } else if (k < v.gpus.size()) {
      to[k] = k;
      by_number = true;
    } else {
      throw InputError(c.source + ": it names GPU" + std::to_string(k) + ", but the topology has " +
                       std::to_string(v.gpus.size()) +
                       " GPUs: the capture and the topology must come from one host");
    }
    if (k < c.names.size() && !c.names[k].empty() && v.gpus[to[k]].name.empty())
      v.gpus[to[k]].name = c.names[k];
  }
  if (by_number)
    v.notes.push_back(c.source +
                      ": GPUs matched by number, as it prints no bus ids (nvidia-smi and CUDA "
                      "both number them in bus order unless CUDA_DEVICE_ORDER says otherwise)");
  return to;
}

void add(HostView& v, std::size_t a, std::size_t b, PairEvidence e) {
  if (a != b) v.pairs[std::minmax(a, b)].evidence.push_back(std::move(e));
}

void access_evidence(HostView& v, const HostCapture& c, const std::vector<std::size_t>& to) {
  const std::string from = " (" + c.source + ")";
  for (std::size_t i = 0; i < c.access.size(); ++i)
    for (std::size_t k = i + 1; k < c.access.size(); ++k) {
      if (c.access[i].size() <= k || c.access[k].size() <= i) continue;
      const bool ok = c.access[i][k] && c.access[k][i];
      add(v, to[i], to[k],
          {!ok, EvidenceLevel::kDriver, c.tool,
           c.tool + (ok ? ": peer access granted" : ": no peer access") + from});
    }
}

std::string gbps(double x) { return four_digits(x) + " GB/s"; }

// Copies between two GPUs: a peer copy whose data did not verify, or that hit an error, is
// evidence against; one verified is the strongest for; one measured but not checked (the CUDA
// samples, nvbandwidth) says the driver let it through. A P2P figure under half the figure of the
// copy staged through the host says the peer path is broken or redirected (ACS, IOMMU).
void copy_evidence(HostView& v, const HostCapture& c, const std::vector<std::size_t>& to) {
  const std::string from = " (" + c.source + ")";
  std::map<std::pair<std::size_t, std::size_t>, double> peer, staged;
  for (const auto& b : c.bandwidth) {
    if (!gpu_figure(b)) continue;
    const std::size_t x = to[gpu_number(b.src)], y = to[gpu_number(b.dst)];
    const bool through_host = b.method == "staged" || b.case_name.rfind("staged", 0) == 0;
    const std::string which = b.src + "->" + b.dst + " " + b.case_name;
    if (b.status == doc::FigureStatus::kFailed && !through_host)
      add(v, x, y,
          {true, EvidenceLevel::kPeerCopy, c.tool,
           c.tool + ": " + which + ": the peer copy's data did not verify (" + b.detail + ")" +
               from});
    else if (b.status == doc::FigureStatus::kError && !through_host)
      add(v, x, y,
          {true, EvidenceLevel::kDriver, c.tool, c.tool + ": " + which + ": " + b.detail + from});
    if (b.status != doc::FigureStatus::kOk || !b.median_gbps || b.p2p == false) continue;
    auto& best = (through_host ? staged : peer)[{x, y}];
    best = std::max(best, *b.median_gbps);
    if (through_host) continue;
    if (c.data_verified)
      add(v, x, y,
          {false, EvidenceLevel::kPeerCopy, c.tool,
           c.tool + ": peer copy verified, " + gbps(*b.median_gbps) + from});
    else if (b.p2p == true)
      add(v, x, y,
          {false, EvidenceLevel::kDriver, c.tool,
           c.tool + ": P2P copies carried " + gbps(*b.median_gbps) + from});
  }
  for (const auto& [xy, p] : peer) {
    const auto s = staged.find(xy);
    if (s != staged.end() && p < 0.5 * s->second)
      add(v, xy.first, xy.second,
          {true, EvidenceLevel::kDriver, c.tool,
           c.tool + ": P2P carries " + gbps(p) + ", under half the " + gbps(s->second) +
               " of the copy staged through the host: the peer path is broken or redirected "
               "(ACS, IOMMU)" +
               from});
  }
}

}  // namespace

std::vector<HostCapture> parse_host_captures(const std::string& text, const std::string& source) {
  std::vector<HostCapture> out;
  if (starts_json_object(text)) {
    out.push_back(json_capture(text, source));
  } else if (topo::looks_like_nvidia_smi_p2p(text)) {
    HostCapture c;
    c.source = source;
    c.tool = "nvidia-smi topo -p2p";
    c.status = topo::p2p_status_from_nvidia_smi(text, source);
    out.push_back(c);
  } else {
    for (const auto& s : import::import_paste(text, source, import::ImportOptions{}).sections)
      if (s.file.tool != "nccl-tests") out.push_back(section_capture(s, source));
  }
  out.erase(
      std::remove_if(out.begin(), out.end(), [](const auto& c) { return !holds_evidence(c); }),
      out.end());
  if (out.empty())
    throw InputError(source +
                     ": no P2P evidence: give nvidia-smi topo -p2p, p2pBandwidthLatencyTest, "
                     "simpleP2P or nvbandwidth output, or p2pcheck bench results or doctor facts");
  return out;
}

void add_capture_evidence(HostView& v, const HostCapture& c) {
  v.captures.push_back(c.source + " (" + c.tool + ")");
  if (c.facts) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < v.gpus.size(); ++i)
      if (!v.gpus[i].bdf.empty()) index[v.gpus[i].bdf] = i;
    const auto gpus = doctor::gpus(*c.facts);
    if (std::none_of(gpus.begin(), gpus.end(), [&](const auto& g) { return index.count(g.bdf); }))
      throw InputError(c.source +
                       ": none of its GPUs is in the topology: the facts and the topology must "
                       "come from one host");
    add_facts_evidence(*c.facts, index, c.source, v);
    return;
  }
  if (!c.status.empty()) {
    topo::add_p2p_status(v.topology, c.status, c.source);
    return;
  }
  const auto to = map_gpus(v, c);
  access_evidence(v, c, to);
  copy_evidence(v, c, to);
}

}  // namespace p2p::vm
