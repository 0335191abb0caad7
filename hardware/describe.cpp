#include "hardware/describe.hpp"

#include <iomanip>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "hardware/floors.hpp"
#include "hardware/model_match.hpp"

namespace p2p::hw {
namespace {

std::string pcie_text(const KnowledgeBase& kb, const GpuModel& m) {
  if (!m.pcie) return "unknown";
  std::ostringstream s;
  s << "PCIe gen" << m.pcie->gen << " x" << m.pcie->width;
  if (const auto g = pcie_gbps(kb, m.pcie->gen, m.pcie->width))
    s << " (" << std::fixed << std::setprecision(1) << *g << " GB/s one way)";
  return s.str();
}

std::string nvlink_text(const KnowledgeBase& kb, const GpuModel& m) {
  if (!m.nvlink) return "none";
  std::ostringstream s;
  s << "NVLink" << m.nvlink->generation << " x" << m.nvlink->links;
  if (const auto g = nvlink_gbps(kb, m.nvlink->generation, m.nvlink->links))
    s << " (" << std::fixed << std::setprecision(0) << *g << " GB/s one way)";
  if (!m.nvlink->note.empty()) s << "; " << m.nvlink->note;
  return s.str();
}

std::string p2p_text(const GpuModel& m) {
  std::string s = to_string(m.p2p_over_pcie);
  if (!m.p2p_since_driver.empty()) s += " (since driver " + m.p2p_since_driver + ")";
  if (!m.p2p_exceptions.empty()) s += "; exceptions: " + m.p2p_exceptions;
  return s;
}

std::string source_of(const GpuModel& m, const std::string& group) {
  const auto it = m.sources.find(group);
  return it == m.sources.end() ? "" : "  [" + it->second + "]";
}

std::string range_text(double low, double high, const std::string& unit) {
  std::ostringstream s;
  s << low;
  if (high != low) s << "-" << high;
  s << " " << unit;
  return s.str();
}

std::string figure_label(const std::string& metric, const std::string& path,
                         std::optional<int> gpus) {
  std::string s = metric;
  if (gpus) s += " " + std::to_string(*gpus) + " GPUs";
  if (path != "any") s += " " + path;
  return s;
}

nlohmann::json model_summary_json(const KnowledgeBase& kb, const GpuModel& m) {
  nlohmann::json j = {
      {"key", m.key},
      {"name", m.name},
      {"architecture", m.architecture},
      {"segment", m.segment},
      {"pcie", m.pcie ? nlohmann::json{{"gen", m.pcie->gen}, {"width", m.pcie->width}}
                      : nlohmann::json(nullptr)},
      {"p2p_over_pcie", to_string(m.p2p_over_pcie)},
      {"figures", kb.figures_of(m.key).size()}};
  j["nvlink"] =
      m.nvlink ? nlohmann::json{{"generation", m.nvlink->generation}, {"links", m.nvlink->links}}
               : nlohmann::json(nullptr);
  return j;
}

}  // namespace

std::string list_text(const KnowledgeBase& kb) {
  std::ostringstream s;
  s << std::left << std::setw(26) << "KEY" << std::setw(48) << "NAME" << std::setw(13) << "ARCH"
    << std::setw(18) << "PCIE" << std::setw(12) << "NVLINK" << std::setw(24) << "P2P OVER PCIE"
    << "FIGURES\n";
  for (const auto& m : kb.models) {
    const std::string pcie =
        m.pcie ? "gen" + std::to_string(m.pcie->gen) + " x" + std::to_string(m.pcie->width) : "-";
    const std::string nv = m.nvlink ? "NVLink" + std::to_string(m.nvlink->generation) + " x" +
                                          std::to_string(m.nvlink->links)
                                    : "-";
    s << std::setw(26) << m.key << std::setw(48) << m.name.substr(0, 47) << std::setw(13)
      << m.architecture << std::setw(18) << pcie << std::setw(12) << nv << std::setw(24)
      << to_string(m.p2p_over_pcie) << kb.figures_of(m.key).size() << "\n";
  }
  s << kb.models.size() << " models, " << kb.figures.size()
    << " published figures; `p2pcheck hw show NAME` gives one with its sources\n";
  return s.str();
}

nlohmann::json list_json(const KnowledgeBase& kb) {
  nlohmann::json models = nlohmann::json::array();
  for (const auto& m : kb.models) models.push_back(model_summary_json(kb, m));
  return {{"schema", "p2pcheck.hw_list"}, {"version", 1}, {"models", models}};
}

std::string show_text(const KnowledgeBase& kb, const GpuModel& m) {
  std::ostringstream s;
  s << m.name << "  (" << m.key << ")\n";
  if (!m.aliases.empty()) s << "  also printed as  " << join(m.aliases, "; ") << "\n";
  s << "  PCI IDs          " << (m.pci_ids.empty() ? "unknown" : join(m.pci_ids, ", "))
    << source_of(m, "pci_ids") << "\n";
  s << "  architecture     " << m.architecture << ", compute capability " << m.compute_capability
    << ", " << m.segment << ", " << m.form_factor;
  if (m.memory_gib) s << ", " << *m.memory_gib << " GiB";
  s << source_of(m, "specs") << "\n";
  s << "  link             " << pcie_text(kb, m) << source_of(m, "pcie") << "\n";
  s << "  NVLink           " << nvlink_text(kb, m) << source_of(m, "nvlink") << "\n";
  s << "  BAR1             "
    << (m.bar1_gib ? std::to_string(static_cast<long>(*m.bar1_gib)) + " GiB" : "unknown")
    << source_of(m, "bar1") << "\n";
  s << "  open kernel module "
    << (!m.open_kernel_module_required   ? "unknown"
        : *m.open_kernel_module_required ? "required"
                                         : "not required")
    << source_of(m, "open_kernel_module") << "\n";
  s << "  P2P over PCIe    " << p2p_text(m) << source_of(m, "p2p_over_pcie") << "\n";
  const auto figures = kb.figures_of(m.key);
  s << "\npublished figures (" << figures.size() << "):\n";
  for (const auto* f : figures)
    s << "  " << std::left << std::setw(30) << figure_label(f->metric, f->path, f->gpus)
      << std::setw(16) << range_text(f->low, f->high, f->unit) << f->tool << ": " << f->note
      << "\n      " << f->source << "\n";
  const auto floors = derived_floors(kb, m);
  s << "\nfloors derived from them (" << floors.size() << "):\n";
  for (const auto& f : floors) {
    std::ostringstream bound;
    bound << (f.higher_is_better ? "warn < " : "warn > ") << f.warn << ", fail "
          << (f.higher_is_better ? "< " : "> ") << f.fail << " " << f.unit;
    s << "  " << std::left << std::setw(30) << figure_label(f.metric, f.path, f.gpus)
      << std::setw(30) << bound.str() << "rule: " << f.rule << "\n";
  }
  if (floors.empty())
    s << "  none: no figure is published for this model, so its runs are held to their link and "
         "to each other\n";
  s << "\nA policy overrides these: {\"models\": {\"" << m.name
    << "\": {\"floors\": [...]}}} (README, \"How the floors are chosen\")\n";
  return s.str();
}

nlohmann::json show_json(const KnowledgeBase& kb, const GpuModel& m) {
  nlohmann::json j = model_summary_json(kb, m);
  j["schema"] = "p2pcheck.hw_model";
  j["version"] = 1;
  j["aliases"] = m.aliases;
  j["pci_ids"] = m.pci_ids;
  j["compute_capability"] = m.compute_capability;
  j["form_factor"] = m.form_factor;
  j["memory_gib"] = m.memory_gib ? nlohmann::json(*m.memory_gib) : nlohmann::json(nullptr);
  j["bar1_gib"] = m.bar1_gib ? nlohmann::json(*m.bar1_gib) : nlohmann::json(nullptr);
  j["open_kernel_module_required"] = m.open_kernel_module_required
                                         ? nlohmann::json(*m.open_kernel_module_required)
                                         : nlohmann::json(nullptr);
  j["pcie_gbps_one_way"] = nullptr;
  if (m.pcie)
    if (const auto g = pcie_gbps(kb, m.pcie->gen, m.pcie->width)) j["pcie_gbps_one_way"] = *g;
  j["p2p_since_driver"] = m.p2p_since_driver;
  j["p2p_exceptions"] = m.p2p_exceptions;
  j["sources"] = m.sources;
  nlohmann::json figures = nlohmann::json::array();
  for (const auto* f : kb.figures_of(m.key))
    figures.push_back({{"metric", f->metric},
                       {"path", f->path},
                       {"gpus", f->gpus ? nlohmann::json(*f->gpus) : nlohmann::json(nullptr)},
                       {"low", f->low},
                       {"high", f->high},
                       {"unit", f->unit},
                       {"tool", f->tool},
                       {"source", f->source},
                       {"note", f->note}});
  j["figures"] = figures;
  nlohmann::json floors = nlohmann::json::array();
  for (const auto& f : derived_floors(kb, m))
    floors.push_back({{"metric", f.metric},
                      {"path", f.path},
                      {"gpus", f.gpus ? nlohmann::json(*f.gpus) : nlohmann::json(nullptr)},
                      {"warn", f.warn},
                      {"fail", f.fail},
                      {"unit", f.unit},
                      {"higher_is_better", f.higher_is_better},
                      {"rule", f.rule},
                      {"sources", f.sources}});
  j["floors"] = floors;
  return j;
}

const GpuModel& model_named(const KnowledgeBase& kb, const std::string& asked) {
  if (const auto* m = kb.model(asked)) return *m;
  const ModelMatch found = identify_model(kb, asked);
  if (found.model) return *found.model;
  std::vector<std::string> candidates = found.candidates;
  // What a person types is often shorter than any printed name ("RTX 4090"): the models whose
  // name holds it as whole words, where that is one model. The judge never matches this loosely.
  if (candidates.empty()) {
    const std::string words = " " + match_words(asked) + " ";
    for (const auto& m : kb.models) {
      std::vector<std::string> names = m.aliases;
      names.push_back(m.name);
      for (const auto& n : names)
        if (words.size() > 2 && (" " + match_words(n) + " ").find(words) != std::string::npos) {
          candidates.push_back(m.key);
          break;
        }
    }
    if (candidates.size() == 1) return *kb.model(candidates.front());
  }
  if (!candidates.empty())
    throw InputError("hw show: '" + asked + "' fits several models: " + join(candidates) +
                     "; name one of them");
  throw InputError("hw show: '" + asked +
                   "' is no model of the knowledge base (`p2pcheck hw list` lists them)");
}

}  // namespace p2p::hw
