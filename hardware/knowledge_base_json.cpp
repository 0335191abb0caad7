// Reads hardware/data/*.json strictly: a typo in the knowledge base must fail its test, not
// leave a model without its link.
#include <cmath>
#include <regex>
#include <set>

#include "common/strict_json.hpp"
#include "hardware/knowledge_base.hpp"
#include "hardware/model_match.hpp"

namespace p2p::hw {
namespace {

void check_schema(StrictReader& r, const std::string& schema) {
  if (r.get<std::string>("schema") != schema)
    throw InputError(r.error_at("schema: expected \"" + schema + "\""));
  if (r.get<int>("version") != 1) throw InputError(r.error_at("version: expected 1"));
}

// A source is a public address, so a reader can check the fact where it was published.
std::string source_at(StrictReader& r, const std::string& key) {
  auto s = r.get<std::string>(key);
  if (s.rfind("https://", 0) != 0 && s.rfind("http://", 0) != 0 && s.rfind("p2pcheck ", 0) != 0)
    throw InputError(r.path(key) +
                     ": expected a URL (or \"p2pcheck <results folder>\" for our own "
                     "measurement), got " +
                     shown_value(nlohmann::json(s)));
  return s;
}

double positive(StrictReader& r, const std::string& key) {
  const auto v = r.get<double>(key);
  if (!(v > 0) || !std::isfinite(v)) throw InputError(r.path(key) + ": expected a number > 0");
  return v;
}

P2pPolicy policy_from(const std::string& s, const std::string& where) {
  if (s == "granted") return P2pPolicy::kGranted;
  if (s == "refused_by_stock_driver") return P2pPolicy::kRefusedByStockDriver;
  if (s == "unknown") return P2pPolicy::kUnknown;
  throw InputError(where + ": expected granted, refused_by_stock_driver or unknown");
}

void read_p2p(const nlohmann::json& j, const std::string& where, GpuModel& m) {
  StrictReader r(j, where);
  m.p2p_over_pcie = policy_from(r.get<std::string>("policy"), r.path("policy"));
  std::optional<std::string> since, exceptions;
  r.opt("since_driver", since);
  r.opt("exceptions", exceptions);
  m.p2p_since_driver = since.value_or("");
  m.p2p_exceptions = exceptions.value_or("");
  r.finish();
}

// Which fact groups need a source when they are known.
void require_sources(const GpuModel& m, const std::string& where) {
  const auto need = [&](bool known, const char* group) {
    if (known && m.sources.count(group) == 0)
      throw InputError(where + ".sources: '" + group + "' is known but has no source");
  };
  need(!m.pci_ids.empty(), "pci_ids");
  need(m.pcie.has_value(), "pcie");
  need(m.nvlink.has_value(), "nvlink");
  need(m.bar1_gib.has_value(), "bar1");
  need(m.open_kernel_module_required.has_value(), "open_kernel_module");
  need(m.p2p_over_pcie != P2pPolicy::kUnknown, "p2p_over_pcie");
}

GpuModel read_model(const nlohmann::json& j, const std::string& where) {
  static const std::regex kPciId("10de:[0-9a-f]{4}");
  StrictReader r(j, where);
  GpuModel m;
  r.get("key", m.key);
  r.get("name", m.name);
  r.get("aliases", m.aliases);
  r.get("pci_ids", m.pci_ids);
  for (std::size_t i = 0; i < m.pci_ids.size(); ++i)
    if (!std::regex_match(m.pci_ids[i], kPciId))
      throw InputError(r.path("pci_ids") + "[" + std::to_string(i) +
                       "]: expected 10de:<4 lower-case hex digits>");
  r.get("architecture", m.architecture);
  r.get("compute_capability", m.compute_capability);
  r.get("segment", m.segment);
  if (m.segment != "datacenter" && m.segment != "workstation" && m.segment != "geforce")
    throw InputError(r.path("segment") + ": expected datacenter, workstation or geforce");
  r.get("form_factor", m.form_factor);
  r.opt("memory_gib", m.memory_gib);
  if (const auto& p = r.at("pcie"); !p.is_null()) {
    StrictReader pr(p, r.path("pcie"));
    m.pcie = PcieInterface{pr.get<int>("gen"), pr.get<int>("width")};
    pr.finish();
  }
  if (const auto& n = r.at("nvlink"); !n.is_null()) {
    StrictReader nr(n, r.path("nvlink"));
    NvlinkInterface v;
    nr.get("generation", v.generation);
    nr.get("links", v.links);
    if (const auto* note = nr.find("note")) v.note = strict_as<std::string>(*note, nr.path("note"));
    nr.finish();
    m.nvlink = v;
  }
  r.opt("bar1_gib", m.bar1_gib);
  r.opt("open_kernel_module_required", m.open_kernel_module_required);
  read_p2p(r.at("p2p_over_pcie"), r.path("p2p_over_pcie"), m);
  StrictReader sr(r.at("sources"), r.path("sources"));
  for (const char* group :
       {"pci_ids", "specs", "pcie", "nvlink", "bar1", "open_kernel_module", "p2p_over_pcie"})
    if (sr.find(group)) m.sources[group] = source_at(sr, group);
  sr.finish();
  r.finish();
  require_sources(m, where);
  return m;
}

ReferenceFigure read_figure(const nlohmann::json& j, const std::string& where) {
  static const std::set<std::string> kMetrics = {
      "p2p_unidir", "p2p_bidir", "p2p_latency_us", "staged_unidir", "staged_latency_us",
      "h2d",        "d2h",       "allreduce_busbw"};
  static const std::set<std::string> kPaths = {"PIX", "PXB", "PHB", "NODE", "SYS", "NV", "any"};
  StrictReader r(j, where);
  ReferenceFigure f;
  r.get("model", f.model);
  r.get("metric", f.metric);
  if (kMetrics.count(f.metric) == 0) throw InputError(r.path("metric") + ": unknown metric");
  r.get("path", f.path);
  if (kPaths.count(f.path) == 0)
    throw InputError(r.path("path") + ": expected PIX, PXB, PHB, NODE, SYS, NV or any");
  if (const auto* g = r.find("gpus"); g && !g->is_null())
    f.gpus = strict_as<int>(*g, r.path("gpus"));
  if (const auto* b = r.find("bytes"); b && !b->is_null())
    f.bytes = strict_as<double>(*b, r.path("bytes"));
  f.low = positive(r, "low");
  f.high = positive(r, "high");
  if (f.high < f.low) throw InputError(r.path("high") + ": below low");
  r.get("unit", f.unit);
  const bool latency = f.metric.find("latency") != std::string::npos;
  if (f.unit != (latency ? "us" : "GB/s"))
    throw InputError(r.path("unit") + ": expected " + (latency ? "us" : "GB/s") + " for " +
                     f.metric);
  if (f.metric == "allreduce_busbw" && !f.gpus)
    throw InputError(r.path("gpus") + ": an all_reduce figure needs its GPU count");
  r.get("tool", f.tool);
  f.source = source_at(r, "source");
  r.get("note", f.note);
  r.finish();
  return f;
}

void read_links(const nlohmann::json& j, const std::string& where, KnowledgeBase& kb) {
  StrictReader r(j, where);
  check_schema(r, "p2pcheck-hw-links");
  kb.pcie = strict_list<PcieGenerationRow>(
      r.at("pcie"), r.path("pcie"), [](const auto& e, const std::string& w) {
        StrictReader g(e, w);
        PcieGenerationRow row;
        g.get("gen", row.gen);
        row.gigatransfers_per_s = positive(g, "gt_per_s");
        g.get("encoding", row.encoding);
        row.efficiency = positive(g, "efficiency");
        if (row.efficiency > 1) throw InputError(g.path("efficiency") + ": expected at most 1");
        row.source = source_at(g, "source");
        if (const auto* note = g.find("note")) strict_as<std::string>(*note, g.path("note"));
        g.finish();
        return row;
      });
  kb.nvlink = strict_list<NvlinkGenerationRow>(
      r.at("nvlink"), r.path("nvlink"), [](const auto& e, const std::string& w) {
        StrictReader g(e, w);
        NvlinkGenerationRow row;
        g.get("generation", row.generation);
        row.gbps_per_link_per_direction = positive(g, "gbps_per_link_per_direction");
        g.get("max_links", row.max_links);
        g.get("gpu", row.gpu);
        row.source = source_at(g, "source");
        if (const auto* note = g.find("note")) strict_as<std::string>(*note, g.path("note"));
        g.finish();
        return row;
      });
  kb.practical =
      strict_list<PracticalFraction>(r.at("practical_fraction"), r.path("practical_fraction"),
                                     [](const auto& e, const std::string& w) {
                                       StrictReader g(e, w);
                                       PracticalFraction p;
                                       g.get("link", p.link);
                                       p.low = positive(g, "low");
                                       p.high = positive(g, "high");
                                       g.get("why", p.why);
                                       p.source = source_at(g, "source");
                                       g.finish();
                                       return p;
                                     });
  r.finish();
}

// Names are matched without case, spaces or punctuation (model_match.hpp): two models may not
// share one that way, nor a PCI ID, or a capture would name two models.
void check_unique(const KnowledgeBase& kb, const std::string& where) {
  std::map<std::string, std::string> names, ids, keys;
  for (const auto& m : kb.models) {
    if (!keys.emplace(m.key, m.key).second)
      throw InputError(where + ": model key '" + m.key + "' appears twice");
    std::set<std::string> own;
    own.insert(match_key(m.name));
    for (const auto& a : m.aliases) own.insert(match_key(a));
    for (const auto& n : own) {
      const auto [it, fresh] = names.emplace(n, m.key);
      if (!fresh)
        throw InputError(where + ": the name '" + n + "' belongs to both " + it->second + " and " +
                         m.key);
    }
    for (const auto& id : m.pci_ids) {
      const auto [it, fresh] = ids.emplace(id, m.key);
      if (!fresh)
        throw InputError(where + ": PCI ID " + id + " belongs to both " + it->second + " and " +
                         m.key);
    }
  }
}

}  // namespace

KnowledgeBase parse_knowledge_base(const nlohmann::json& models, const nlohmann::json& links,
                                   const nlohmann::json& figures, const std::string& where) {
  KnowledgeBase kb;
  {
    StrictReader r(models, where + " gpu_models.json");
    check_schema(r, "p2pcheck-hw-models");
    kb.models = strict_list<GpuModel>(r.at("models"), "gpu_models.json: models", read_model);
    r.finish();
  }
  read_links(links, where + " links.json", kb);
  {
    StrictReader r(figures, where + " reference_figures.json");
    check_schema(r, "p2pcheck-hw-references");
    kb.figures = strict_list<ReferenceFigure>(r.at("figures"), "reference_figures.json: figures",
                                              read_figure);
    r.finish();
  }
  check_unique(kb, where);
  for (std::size_t i = 0; i < kb.figures.size(); ++i)
    if (!kb.model(kb.figures[i].model))
      throw InputError("reference_figures.json: figures[" + std::to_string(i) + "].model: '" +
                       kb.figures[i].model + "' is no model of gpu_models.json");
  return kb;
}

}  // namespace p2p::hw
