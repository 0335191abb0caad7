// The shape of the model whose tensor-parallel all-reduces `p2pcheck infer` measures: hidden
// size, layer count and element type, from the command line or from a Hugging Face
// `config.json`. Pure: the reader takes parsed JSON, so the CPU tests feed it real layouts
// (plain decoder, multimodal with `text_config`, newer `dtype` spelling) and broken ones.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "document/data_type.hpp"
#include "document/infer_records.hpp"

namespace p2p::infer {

using doc::ModelShape;  // document/infer_records.hpp

// The element types an all-reduce runs in: NCCL's names plus the usual short spellings
// ("bf16", "fp16", "fp32") and PyTorch's ("torch.bfloat16"). InputError naming `what` otherwise.
doc::DataType parse_model_dtype(const std::string& text, const std::string& what);

// The language model's numbers: at the top level, or in `text_config` (multimodal models keep
// them there; that is the part whose activations tensor parallelism all-reduces), falling back
// to the top level key by key. `dtype_override` (--dtype) wins over the file's `torch_dtype` /
// `dtype`; without either, InputError. Every error is one line: "<source>: key `<key>`: <why>".
ModelShape model_shape_from_config(const nlohmann::json& config, const std::string& source,
                                   const std::optional<std::string>& dtype_override);

// Reads and parses `path` (InputError naming the file when missing or not JSON), then as above.
ModelShape read_model_config(const std::string& path,
                             const std::optional<std::string>& dtype_override);

// --hidden/--layers/--dtype: checked like the file's numbers.
ModelShape model_shape_from_options(std::uint64_t hidden, int layers, const std::string& dtype);

}  // namespace p2p::infer
