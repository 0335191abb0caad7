#include "hardware/model_match.hpp"

#include <algorithm>
#include <cctype>

namespace p2p::hw {
namespace {

// Words of a name, lower case, punctuation as spaces: "NVIDIA A100-SXM4-80GB" -> " a100 sxm4
// 80gb " (padded, so " rtx 4090 " is found only as whole words).
std::string words_of(const std::string& name) {
  std::string out = " ";
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : ' ';
  }
  out += ' ';
  std::string squeezed;
  for (const char c : out)
    if (!(c == ' ' && !squeezed.empty() && squeezed.back() == ' ')) squeezed += c;
  const std::string nvidia = " nvidia ";
  for (auto at = squeezed.find(nvidia); at != std::string::npos; at = squeezed.find(nvidia))
    squeezed.replace(at, nvidia.size(), " ");
  return squeezed;
}

bool is_pci_id(const std::string& s) {
  return s.size() == 9 && s.compare(0, 5, "10de:") == 0 &&
         std::all_of(s.begin() + 5, s.end(), [](char c) { return std::isxdigit(c) != 0; });
}

}  // namespace

std::string match_words(const std::string& name) {
  const std::string w = words_of(name);
  const auto first = w.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return w.substr(first, w.find_last_not_of(' ') - first + 1);
}

std::string match_key(const std::string& name) {
  std::string out;
  for (const char c : words_of(name))
    if (c != ' ') out += c;
  return out;
}

ModelMatch identify_model(const KnowledgeBase& kb, const std::string& given) {
  std::string lower = given;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (is_pci_id(lower)) {
    for (const auto& m : kb.models)
      if (std::find(m.pci_ids.begin(), m.pci_ids.end(), lower) != m.pci_ids.end())
        return {&m, "PCI ID " + lower, {}};
    return {};
  }
  const std::string key = match_key(given);
  if (key.empty()) return {};
  for (const auto& m : kb.models) {
    if (match_key(m.name) == key) return {&m, "name", {}};
    for (const auto& a : m.aliases)
      if (match_key(a) == key) return {&m, "name", {}};
  }
  // The longest name contained as whole words wins; a tie between models is no answer.
  const std::string words = words_of(given);
  std::size_t best = 0;
  std::vector<const GpuModel*> fits;
  std::string best_name;
  for (const auto& m : kb.models) {
    std::vector<std::string> names = m.aliases;
    names.push_back(m.name);
    for (const auto& n : names) {
      const std::string w = words_of(n);
      if (w.size() <= 2 || words.find(w) == std::string::npos) continue;
      if (w.size() > best) {
        best = w.size();
        fits = {&m};
        best_name = n;
      } else if (w.size() == best && std::find(fits.begin(), fits.end(), &m) == fits.end()) {
        fits.push_back(&m);
      }
    }
  }
  if (fits.size() == 1) return {fits[0], "name contains '" + best_name + "'", {}};
  ModelMatch none;
  for (const auto* m : fits) none.candidates.push_back(m->key);
  return none;
}

}  // namespace p2p::hw
