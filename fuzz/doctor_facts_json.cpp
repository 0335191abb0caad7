// A facts file given to `doctor --facts` (saved with --save-facts, attached to a ticket): read,
// judged and rendered as text and JSON, as the doctor command does.
#include "common/file_io.hpp"
#include "doctor/facts.hpp"
#include "doctor/render.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/verdict/verdict.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& text) {
    // load_facts_file without the file: the same parse, the same strict reader.
    const auto facts = p2p::doctor::facts_from_json(p2p::parse_json_text(text, p2p::fuzz::kSource));
    const auto findings = p2p::doctor::judge(facts);
    const auto verdict = p2p::doctor::conclude(facts, findings);
    (void)p2p::doctor::render_verdict_text(facts, findings, verdict);
    (void)p2p::doctor::render_verdict_json(facts, findings, verdict).dump(2);
    (void)p2p::doctor::facts_to_json(facts).dump(2);
  });
}
