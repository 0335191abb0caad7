// Which model of the knowledge base a capture's GPU is, from the name a tool printed
// ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "Device: 0, NVIDIA H200, pciBusID: 1b") or
// its PCI ID ("10de:2bb5"). Pure.
#pragma once

#include <string>
#include <vector>

#include "hardware/knowledge_base.hpp"

namespace p2p::hw {

// A name as names are compared: lower case, "nvidia" dropped, only letters and digits kept
// ("NVIDIA A100-SXM4-80GB" -> "a100sxm480gb").
std::string match_key(const std::string& name);
// The same, with single spaces between the words: "NVIDIA A100-SXM4-80GB" -> "a100 sxm4 80gb".
std::string match_words(const std::string& name);

struct ModelMatch {
  const GpuModel* model = nullptr;      // null: no model, or more than one fits
  std::string how;                      // "PCI ID 10de:2bb5", "name", "name contains 'rtx 4090'"
  std::vector<std::string> candidates;  // the keys that fit where several did
};

// A PCI ID or a name: an exact PCI ID or name (any alias) first; else the one model one of
// whose names is contained in the given one as whole words ("NVIDIA GeForce RTX 4090 (GPU0)").
// Where several models' names fit that way equally well, none is chosen: a wrong model would
// hold the run to the wrong link.
ModelMatch identify_model(const KnowledgeBase& kb, const std::string& name_or_pci_id);

}  // namespace p2p::hw
