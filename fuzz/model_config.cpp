// A Hugging Face config.json given to `p2pcheck infer --model`, with and without --dtype.
#include "infer/model_config.hpp"

#include "common/file_io.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const nlohmann::json config = parse_json_text(text, fuzz::kSource);
    try {
      (void)infer::model_shape_from_config(config, fuzz::kSource, std::nullopt);
    } catch (const InputError&) {
      // a config without a dtype: --dtype gives it
    }
    (void)infer::model_shape_from_config(config, fuzz::kSource, std::string("bf16"));
  });
}
