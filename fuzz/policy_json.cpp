// A policy file given to `gate --policy`, `bench --policy`, `judge --policy` and `check --policy`:
// read whole (the gate's keys and acceptance's), and its gate keys alone as the gate reads them.
#include "acceptance/policy_file.hpp"
#include "common/file_io.hpp"
#include "fuzz/fuzz_input.hpp"
#include "topology/policy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const nlohmann::json j = parse_json_text(text, fuzz::kSource);
    try {
      (void)accept::policy_file_from_json(j, fuzz::kSource);
    } catch (const InputError&) {
      // documented: a bad policy; the gate's reading below must still hold up
    }
    const auto policy = topo::policy_from_json(j, fuzz::kSource);
    (void)nlohmann::json(policy).dump();
  });
}
