// A gate policy file given to `gate --policy` or `bench --policy`.
#include "common/file_io.hpp"
#include "fuzz/fuzz_input.hpp"
#include "topology/policy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& text) {
    const auto policy = p2p::topo::policy_from_json(p2p::parse_json_text(text, p2p::fuzz::kSource),
                                                    p2p::fuzz::kSource);
    (void)nlohmann::json(policy).dump();
  });
}
