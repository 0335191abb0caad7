#include "import/import_document.hpp"

#include <algorithm>
#include <set>

#include "common/error.hpp"
#include "import/nccl_tests.hpp"
#include "import/nvbandwidth.hpp"
#include "import/p2p_bandwidth_latency.hpp"
#include "nccl/results_section.hpp"

namespace p2p::import {

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
  throw InputError(
      file +
      ": not the output of a peer tool p2pcheck reads: expected nvbandwidth (text or -j JSON), nccl-tests "
      "(text or -J JSON) or p2pBandwidthLatencyTest output");
}

bench::BenchDocument import_document(const std::vector<ImportedFigures>& parts,
                                     const ImportOptions& options, const std::string& started_utc) {
  bench::BenchDocument doc;
  doc.written_by = "import";
  doc.tool_version = options.tool_version.empty() ? std::string(P2P_VERSION) : options.tool_version;
  doc.started_utc = started_utc;
  doc.environment = "unknown";
  doc.topology_source = "imported";
  doc.gate.detail = "not run: figures imported from peer tools' outputs";
  std::set<std::uint64_t> sizes;
  std::optional<nccl::NcclRun> nccl;
  for (const auto& p : parts) {
    doc.imported.push_back(p.file);
    if (doc.hostname.empty()) doc.hostname = p.hostname;
    if (doc.nvidia_driver_version.empty()) doc.nvidia_driver_version = p.nvidia_driver_version;
    if (doc.cuda_driver_version.empty()) doc.cuda_driver_version = p.cuda_driver_version;
    if (p.gpus.size() > doc.gpus.size()) doc.gpus = p.gpus;
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
  doc.sizes_bytes.assign(sizes.begin(), sizes.end());
  if (nccl) {
    nccl::NcclResultsSection report;
    report.run = std::move(*nccl);
    doc.nccl = report;
  }
  return doc;
}

}  // namespace p2p::import
