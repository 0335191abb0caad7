// `p2pcheck hw list` and `hw show`: the knowledge base as a person reads it (every fact beside
// its source) and as JSON. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "hardware/knowledge_base.hpp"

namespace p2p::hw {

// One row per model: key, name, architecture, segment, PCIe, NVLink, P2P over PCIe, figures.
std::string list_text(const KnowledgeBase& kb);
nlohmann::json list_json(const KnowledgeBase& kb);

// One model whole: names, IDs, link and its ceiling, NVLink, BAR1, the open module, the P2P
// policy, the published figures and the floors derived from them, each with its source.
std::string show_text(const KnowledgeBase& kb, const GpuModel& m);
nlohmann::json show_json(const KnowledgeBase& kb, const GpuModel& m);

// The model a user named (key, name, alias or PCI ID); InputError naming what was asked and
// the candidates where several fit or the keys where none does.
const GpuModel& model_named(const KnowledgeBase& kb, const std::string& asked);

}  // namespace p2p::hw
