#include "import/import_document.hpp"

#include <algorithm>
#include <set>

#include "common/error.hpp"
#include "document/bench_document.hpp"
#include "import/nccl_tests.hpp"
#include "import/nvbandwidth.hpp"
#include "import/nvidia_smi_topo.hpp"
#include "import/p2p_bandwidth_latency.hpp"

namespace p2p::import {

namespace {

// An `nvidia-smi topo -p2p` capture: no figures, only which GPU pairs the driver gives peer
// access (its read or write status OK). NVLink, atomics and prop captures say nothing of PCIe
// peer access and give none.
ImportedFigures nvidia_smi_p2p_access(const std::vector<topo::P2pStatus>& status,
                                      const std::string& file) {
  ImportedFigures f;
  f.file.file = file;
  f.file.tool = "nvidia-smi";
  f.file.format = "text";
  topo::TopologySnapshot t;
  for (const auto& s : status) {
    f.file.mappings.push_back("topo -p2p (" + s.capability + ") -> p2p_access");
    if (s.capability == "read" || s.capability == "write" || s.capability == "read+write")
      t.p2p_status.push_back(s);
  }
  if (t.p2p_status.empty()) {
    f.file.notes.push_back("no read or write status captured: p2p_access left out");
    return f;
  }
  const std::size_t n = t.p2p_status.front().cells.size();
  for (std::size_t i = 0; i < n; ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = static_cast<int>(i);
    f.gpus.push_back(g);
    f.p2p_access.emplace_back();
    for (std::size_t j = 0; j < n; ++j)
      f.p2p_access.back().push_back(i != j && topo::p2p_status_of(t, i, j) == "OK");
  }
  f.file.notes.push_back(
      "GPUs as nvidia-smi numbers them (PCI bus order): CUDA's ordinals only under "
      "CUDA_DEVICE_ORDER=PCI_BUS_ID");
  return f;
}

bool from_nvidia_smi(const ImportedFigures& p) { return p.file.tool == "nvidia-smi"; }

// The peer access of the first part that says, over the document's GPUs (an output over fewer
// GPUs cannot give it): CUDA's own answer (cudaDeviceCanAccessPeer, the sample's connectivity
// matrix) before the driver's status in nvidia-smi's numbering.
std::vector<std::vector<bool>> p2p_access_of(const std::vector<ImportedFigures>& parts,
                                             std::size_t gpus) {
  for (const bool nvidia_smi : {false, true})
    for (const auto& p : parts)
      if (from_nvidia_smi(p) == nvidia_smi && !p.p2p_access.empty() && p.p2p_access.size() == gpus)
        return p.p2p_access;
  return {};
}

}  // namespace

ImportedFigures import_text(const std::string& text, const std::string& file,
                            const ImportOptions& options) {
  if (looks_like_nvbandwidth(text))
    return nvbandwidth_figures(parse_nvbandwidth(text, file), file,
                               options.nvbandwidth_buffer_bytes);
  if (looks_like_nccl_tests(text))
    return nccl_tests_figures(parse_nccl_tests(text, file, options.collective), file);
  if (looks_like_p2p_bandwidth_latency(text))
    return p2p_bandwidth_latency_figures(parse_p2p_bandwidth_latency(text, file), file,
                                         options.p2p_sample_copy_bytes);
  if (looks_like_nvidia_smi_p2p(text))
    return nvidia_smi_p2p_access(p2p_status_from_nvidia_smi(text, file), file);
  throw InputError(
      file +
      ": not the output of a peer tool p2pcheck reads: expected nvbandwidth (text or -j JSON), nccl-tests "
      "(text or -J JSON), p2pBandwidthLatencyTest output or an nvidia-smi topo -p2p capture");
}

doc::BenchDocument import_document(const std::vector<ImportedFigures>& parts,
                                   const ImportOptions& options, const std::string& started_utc) {
  doc::BenchDocument doc;
  doc.written_by = "import";
  doc.tool_version = options.tool_version.empty() ? std::string(P2P_VERSION) : options.tool_version;
  doc.started_utc = started_utc;
  doc.environment = "unknown";
  doc.topology_source = "imported";
  doc.gate.detail = "not run: figures imported from peer tools' outputs";
  std::set<std::uint64_t> sizes;
  std::optional<doc::NcclRun> nccl;
  for (const auto& p : parts) {
    doc.imported.push_back(p.file);
    if (doc.hostname.empty()) doc.hostname = p.hostname;
    if (doc.nvidia_driver_version.empty()) doc.nvidia_driver_version = p.nvidia_driver_version;
    if (doc.cuda_driver_version.empty()) doc.cuda_driver_version = p.cuda_driver_version;
    // nvidia-smi's GPUs (numbered only) stand in where no tool named them.
    if (p.gpus.size() > doc.gpus.size() && !from_nvidia_smi(p)) doc.gpus = p.gpus;
    doc.bandwidth.insert(doc.bandwidth.end(), p.bandwidth.begin(), p.bandwidth.end());
    doc.latency.insert(doc.latency.end(), p.latency.begin(), p.latency.end());
    for (const auto& b : p.bandwidth) sizes.insert(b.bytes);
    if (p.nccl) {
      if (!nccl) {
        nccl = *p.nccl;
      } else {
        nccl->results.insert(nccl->results.end(), p.nccl->results.begin(), p.nccl->results.end());
        if (p.nccl->environment.devices.size() > nccl->environment.devices.size()) {
          nccl->environment.devices = p.nccl->environment.devices;
          nccl->transport = p.nccl->transport;
        }
      }
    }
  }
  for (const auto& p : parts)
    if (doc.gpus.empty() && from_nvidia_smi(p)) doc.gpus = p.gpus;
  doc.sizes_bytes.assign(sizes.begin(), sizes.end());
  doc.p2p_access = p2p_access_of(parts, doc.gpus.size());
  if (nccl) {
    doc::NcclResultsSection report;
    report.run = std::move(*nccl);
    doc.nccl = report;
  }
  return doc;
}

}  // namespace p2p::import
