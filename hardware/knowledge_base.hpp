// The hardware knowledge base: what each GPU model is (names, PCI IDs, link, NVLink, BAR1, the
// P2P policy of its driver), what each link generation carries, and the figures published for
// each model, every entry with the public source it came from. The data lives in
// hardware/data/*.json (kept there, one row at a time, each row cited); this is its reader.
// Pure: the built-in copy is compiled into the executable, so a host with no files still has it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace p2p::hw {

// How a model's driver treats peer-to-peer over PCIe.
enum class P2pPolicy {
  kGranted,               // datacenter and workstation boards: P2P where the platform allows it
  kRefusedByStockDriver,  // GeForce: the stock driver reports no peer access over PCIe
  kUnknown,
};
const char* to_string(P2pPolicy p);  // granted | refused_by_stock_driver | unknown

struct PcieInterface {
  int gen = 0;
  int width = 0;
};

struct NvlinkInterface {
  int generation = 0;
  int links = 0;
  std::string note;  // "NVLink bridge between two boards", ...
};

struct GpuModel {
  std::string key;   // "rtx-pro-6000-server"
  std::string name;  // as nvidia-smi prints it
  std::vector<std::string> aliases;
  std::vector<std::string> pci_ids;  // "10de:2bb5"
  std::string architecture;          // "Blackwell"
  std::string compute_capability;    // "12.0"
  std::string segment;               // datacenter | workstation | geforce
  std::string form_factor;           // "PCIe", "SXM", ...
  std::optional<double> memory_gib;
  std::optional<PcieInterface> pcie;
  std::optional<NvlinkInterface> nvlink;
  std::optional<double> bar1_gib;
  std::optional<bool> open_kernel_module_required;
  P2pPolicy p2p_over_pcie = P2pPolicy::kUnknown;
  std::string p2p_since_driver;                // "" when no source says
  std::string p2p_exceptions;                  // known exceptions to the policy ("" when none)
  std::map<std::string, std::string> sources;  // fact group -> URL
};

// One PCIe generation: per-lane rate and the share of it that is payload after line coding.
struct PcieGenerationRow {
  int gen = 0;
  double gigatransfers_per_s = 0;
  std::string encoding;   // "8b/10b", "128b/130b", "1b/1b flit"
  double efficiency = 0;  // payload bits per transferred bit
  std::string source;
};

struct NvlinkGenerationRow {
  int generation = 0;
  double gbps_per_link_per_direction = 0;
  int max_links = 0;
  std::string gpu;  // the GPU that brought it: "A100"
  std::string source;
};

// What packet overhead leaves of a link's raw rate, as measured (e.g. PCIe: 0.86-0.90).
struct PracticalFraction {
  std::string link;
  double low = 0;
  double high = 0;
  std::string why;
  std::string source;
};

// One published figure: a model, a metric on a path class, a range, and where it was published.
struct ReferenceFigure {
  std::string model;            // a GpuModel key
  std::string metric;           // p2p_unidir | p2p_bidir | p2p_latency_us | staged_unidir |
                                // staged_latency_us | h2d | d2h | allreduce_busbw
  std::string path;             // PIX | PXB | PHB | NODE | SYS | NV | any
  std::optional<int> gpus;      // allreduce_busbw: the GPU count
  std::optional<double> bytes;  // message or buffer size, where the source says
  double low = 0;
  double high = 0;
  std::string unit;  // "GB/s" | "us"
  std::string tool;
  std::string source;
  std::string note;
};

struct KnowledgeBase {
  std::vector<GpuModel> models;
  std::vector<PcieGenerationRow> pcie;
  std::vector<NvlinkGenerationRow> nvlink;
  std::vector<PracticalFraction> practical;
  std::vector<ReferenceFigure> figures;

  const GpuModel* model(const std::string& key) const;
  const PcieGenerationRow* pcie_generation(int gen) const;
  const NvlinkGenerationRow* nvlink_generation(int generation) const;
  // The published figures of one model, in file order.
  std::vector<const ReferenceFigure*> figures_of(const std::string& model_key) const;
};

// Reads the three documents (gpu_models.json, links.json, reference_figures.json), checking
// every entry: InputError "<where>: models[3].pci_ids[0]: expected vendor:device in hex" for the
// first that is wrong, and for a figure naming an unknown model, a PCI ID or name given to two
// models, a fact without its source.
KnowledgeBase parse_knowledge_base(const nlohmann::json& models, const nlohmann::json& links,
                                   const nlohmann::json& figures, const std::string& where);

// The knowledge base compiled into this executable (hardware/data/ at build time), read once.
const KnowledgeBase& builtin_knowledge_base();

// Raw payload rate of a PCIe link one way, GB/s (1e9 B/s): lanes x GT/s x coding efficiency / 8;
// nullopt for a generation the base does not know or a width outside 1..32.
std::optional<double> pcie_gbps(const KnowledgeBase& kb, int gen, int width);
// An NVLink connection of `links` links one way, GB/s; nullopt for an unknown generation.
std::optional<double> nvlink_gbps(const KnowledgeBase& kb, int generation, int links);

}  // namespace p2p::hw
