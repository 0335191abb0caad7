#include "import/import_document.hpp"

#include <algorithm>
#include <set>

#include "common/error.hpp"
#include "document/bench_document.hpp"
#include "import/limits.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::import {

namespace {

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
  std::size_t figures = 0;
  for (const auto& p : parts) {
    figures += p.bandwidth.size() + p.latency.size() + (p.nccl ? p.nccl->results.size() : 0);
    if (figures > kMaxImportedFigures)
      throw InputError(p.file.file + ": with the files before it, more than " +
                       std::to_string(kMaxImportedFigures) +
                       " figures, beyond what one import reads (docs/inputs-and-outputs.md)");
  }
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
  for (const auto& p : parts) {
    if (doc.gpus.empty() && from_nvidia_smi(p)) doc.gpus = p.gpus;
    // The first topo -m capture's topology, for the report's pair labels.
    if (!doc.topology && p.topology) {
      doc.topology = *p.topology;
      doc.topology_source = p.file.file;
    }
  }
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
