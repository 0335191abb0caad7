#include "common/file_io.hpp"
#include "hardware/knowledge_base.hpp"

namespace p2p::hw {
namespace builtin {
// builtin_data.cpp, generated from hardware/data/ at build time.
extern const char* const k_models;
extern const char* const k_links;
extern const char* const k_figures;
}  // namespace builtin

const KnowledgeBase& builtin_knowledge_base() {
  // Read once; the data's own test (hardware/tests) keeps it readable, so this cannot throw in
  // a released executable.
  static const KnowledgeBase kb = parse_knowledge_base(
      parse_own_json(builtin::k_models, "the built-in gpu_models.json"),
      parse_own_json(builtin::k_links, "the built-in links.json"),
      parse_own_json(builtin::k_figures, "the built-in reference_figures.json"), "built-in");
  return kb;
}

}  // namespace p2p::hw
