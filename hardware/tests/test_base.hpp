// A small knowledge base written for the tests of the reader, the matcher and the floors, so
// that they do not move when hardware/data/ grows. Its facts are illustrative; the real ones and
// their sources are checked in knowledge_base_test.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "hardware/knowledge_base.hpp"

namespace p2p::hw::testing {

inline nlohmann::json model_json(const std::string& key, const std::string& name,
                                 const std::vector<std::string>& aliases,
                                 const std::vector<std::string>& ids, const std::string& segment,
                                 const std::string& policy) {
  return {
      {"key", key},
      {"name", name},
      {"aliases", aliases},
      {"pci_ids", ids},
      {"architecture", "Blackwell"},
      {"compute_capability", "12.0"},
      {"segment", segment},
      {"form_factor", "PCIe"},
      {"memory_gib", 96},
      {"pcie", {{"gen", 5}, {"width", 16}}},
      {"nvlink", nullptr},
      {"bar1_gib", nullptr},
      {"open_kernel_module_required", true},
      {"p2p_over_pcie", {{"policy", policy}, {"since_driver", nullptr}, {"exceptions", nullptr}}},
      {"sources",
       {{"pci_ids", "https://example.org/ids"},
        {"pcie", "https://example.org/spec"},
        {"open_kernel_module", "https://example.org/open"},
        {"p2p_over_pcie", "https://example.org/p2p"}}}};
}

inline nlohmann::json models_json() {
  return {{"schema", "p2pcheck-hw-models"},
          {"version", 1},
          {"models",
           {model_json("pro-server", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                       {"RTX PRO 6000 Blackwell Server Edition"}, {"10de:2bb5"}, "workstation",
                       "granted"),
            model_json("pro-workstation", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", {},
                       {"10de:2bb1"}, "workstation", "granted"),
            model_json("rtx-4090", "NVIDIA GeForce RTX 4090", {"GeForce RTX 4090"}, {"10de:2684"},
                       "geforce", "refused_by_stock_driver")}}};
}

inline nlohmann::json links_json() {
  return {{"schema", "p2pcheck-hw-links"},
          {"version", 1},
          {"pcie",
           {{{"gen", 4},
             {"gt_per_s", 16},
             {"encoding", "128b/130b"},
             {"efficiency", 128.0 / 130},
             {"source", "https://example.org/pcie4"}},
            {{"gen", 5},
             {"gt_per_s", 32},
             {"encoding", "128b/130b"},
             {"efficiency", 128.0 / 130},
             {"source", "https://example.org/pcie5"}}}},
          {"nvlink",
           {{{"generation", 4},
             {"gbps_per_link_per_direction", 25},
             {"max_links", 18},
             {"gpu", "H100"},
             {"source", "https://example.org/nvlink4"}}}},
          {"practical_fraction", nlohmann::json::array()}};
}

inline nlohmann::json figure_json(const std::string& model, const std::string& metric,
                                  const std::string& path, double low, double high,
                                  const std::string& source = "https://example.org/fig") {
  const bool latency = metric.find("latency") != std::string::npos;
  return {{"model", model},
          {"metric", metric},
          {"path", path},
          {"gpus", nullptr},
          {"bytes", nullptr},
          {"low", low},
          {"high", high},
          {"unit", latency ? "us" : "GB/s"},
          {"tool", "p2pBandwidthLatencyTest"},
          {"source", source},
          {"note", "test figure"}};
}

inline nlohmann::json figures_json() {
  nlohmann::json busbw = figure_json("pro-server", "allreduce_busbw", "any", 37.6, 41.1);
  busbw["gpus"] = 8;
  return {{"schema", "p2pcheck-hw-references"},
          {"version", 1},
          {"figures",
           {figure_json("pro-server", "p2p_unidir", "NODE", 53, 56.6, "https://example.org/a"),
            figure_json("pro-server", "p2p_unidir", "NODE", 54, 57, "https://example.org/b"),
            figure_json("pro-server", "p2p_unidir", "SYS", 39, 51),
            figure_json("pro-server", "p2p_latency_us", "NODE", 0.36, 0.52),
            figure_json("pro-server", "staged_latency_us", "any", 14, 14), busbw}}};
}

inline KnowledgeBase test_base() {
  return parse_knowledge_base(models_json(), links_json(), figures_json(), "test");
}

}  // namespace p2p::hw::testing
