// What the rules need to know about a results document beyond its figures: which path class
// joins two of its GPUs, which figure of each series is judged (its plateau), and which GPU
// models it ran on. Built once per document; pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "document/bench_document.hpp"
#include "hardware/knowledge_base.hpp"
#include "topology/snapshot.hpp"

namespace p2p::accept {

// What a figure's path could carry one way, and what says so: "topology" (the document's own
// topology, or the ceiling the run recorded from it), "model" (the GPU model's link in the
// hardware knowledge base, for a document that carries no link).
struct Ceiling {
  double gbps = 0;
  std::string link;   // "PCIe gen5 x16", "NVLink4 x18"
  std::string basis;  // topology | model
};

class DocumentView {
 public:
  // `kb`: the knowledge base the GPUs' models are looked up in (the built-in one by default).
  explicit DocumentView(const doc::BenchDocument& d,
                        const hw::KnowledgeBase& kb = hw::builtin_knowledge_base());

  const doc::BenchDocument& doc() const { return doc_; }
  // Several logical GPUs on one device: peer figures measure the tool, not the links.
  bool logical() const { return doc_.logical_gpus > 0; }
  bool imported() const { return !doc_.imported.empty(); }

  // The class of the path between two figure endpoints ("gpu0", "gpu3"): NVLink where NVLink
  // joins them, else their PCIe class; nullopt for the host, "all", or a pair the document's
  // topology does not place.
  std::optional<topo::PathClass> path(const std::string& a, const std::string& b) const;
  // "NV4", "NODE", "" (as path(), in `nvidia-smi topo -m` words).
  std::string path_label(const std::string& a, const std::string& b) const;

  // The topology's record of a figure endpoint ("gpu3"); null for the host or an unplaced GPU.
  const topo::Gpu* topology_gpu(const std::string& label) const;

  // What the figure's path could carry one way, GB/s, and the link's name: for PCIe, the raw
  // rate of the best link the GPU and its slot can both train (so a downtrained link counts
  // against the host, and an idle link's power-saving speed does not excuse it); the slower
  // GPU's for a GPU pair; the NVLink ceiling recorded with the figure where NVLink joins them.
  // Where the document gives no link at all, the link of the GPU model (basis "model").
  std::optional<Ceiling> ceiling(const doc::BandwidthResult& r) const;

  const hw::KnowledgeBase& knowledge_base() const { return kb_; }
  // The knowledge base's model of a figure endpoint ("gpu3"), from the name the document or its
  // capture gives the GPU, or the topology's PCI ID; null for the host or an unknown GPU.
  const hw::GpuModel* model_of(const std::string& label) const;
  // The model of a figure: its GPU endpoints', where they agree (one endpoint for host links).
  const hw::GpuModel* model_of(const std::string& src, const std::string& dst) const;
  // The one model every GPU of the document (its figures' GPUs and its NCCL ranks') is, or null
  // where they differ or none is known. `names` gets the names that were looked up.
  const hw::GpuModel* document_model(std::vector<std::string>* names = nullptr) const;

  // The judged figure of one series (case, src, dst, part): the one at the series' largest
  // size, when that size is at least `min_bytes`; null otherwise.
  const doc::BandwidthResult* plateau(const std::string& case_name, const std::string& src,
                                      const std::string& dst, const std::string& part,
                                      std::uint64_t min_bytes) const;
  // Every series of one case and part, at its plateau (series below `min_bytes` left out).
  std::vector<const doc::BandwidthResult*> plateaus(const std::string& case_name,
                                                    const std::string& part,
                                                    std::uint64_t min_bytes) const;
  // The largest size any series of the case reached (0 without figures of it).
  std::uint64_t largest_bytes(const std::string& case_name) const;

  const doc::LatencyResult* latency(const std::string& case_name, const std::string& src,
                                    const std::string& dst) const;

  // "NVIDIA H200" and "10de:2335" for every GPU, for the policy's per-model overrides.
  std::vector<std::string> gpu_models() const;

 private:
  using SeriesKey = std::tuple<std::string, std::string, std::string, std::string>;
  const doc::BenchDocument& doc_;
  const hw::KnowledgeBase& kb_;
  std::map<std::string, std::size_t> topology_index_;  // "gpu3" -> snapshot index
  std::map<std::string, const hw::GpuModel*> models_;  // "gpu3" -> its model, where known
  std::map<SeriesKey, const doc::BandwidthResult*> largest_;
};

}  // namespace p2p::accept
