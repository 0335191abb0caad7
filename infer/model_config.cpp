#include "infer/model_config.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"

namespace p2p::infer {

namespace {

// Real models stay far below these; anything beyond is a typo or a broken file, and would
// overflow the message sizes (tokens x hidden x bytes) the plan multiplies out.
constexpr std::uint64_t kMaxHidden = std::uint64_t{1} << 20;
constexpr int kMaxLayers = 4096;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The object the language model's numbers live in, if the file nests them.
const nlohmann::json* text_config(const nlohmann::json& config) {
  const auto it = config.find("text_config");
  if (it == config.end() || it->is_null()) return nullptr;
  return &*it;
}

// `key` from text_config first, else from the top level; nullopt where neither has it.
struct Found {
  const nlohmann::json* value = nullptr;
  std::string path;
};
Found find_key(const nlohmann::json& config, const std::string& key) {
  if (const nlohmann::json* text = text_config(config); text != nullptr && text->is_object()) {
    const auto it = text->find(key);
    if (it != text->end() && !it->is_null()) return {&*it, "text_config." + key};
  }
  const auto it = config.find(key);
  if (it != config.end() && !it->is_null()) return {&*it, key};
  return {};
}

template <class T>
T required_integer(const nlohmann::json& config, const std::string& key, const std::string& source,
                   T lo, T hi, std::string& where) {
  const Found f = find_key(config, key);
  if (f.value == nullptr) {
    throw InputError(source + ": key `" + key +
                     "`: missing (looked at the top level and in `text_config`)");
  }
  where = f.path;
  try {
    return checked_integer<T>(*f.value, f.path, lo, hi);
  } catch (const InputError& e) {
    throw InputError(source + ": key " + e.what());
  }
}

}  // namespace

doc::DataType parse_model_dtype(const std::string& text, const std::string& what) {
  std::string t = lower(text);
  if (t.rfind("torch.", 0) == 0) t = t.substr(6);
  if (t == "bf16" || t == "bfloat16") return doc::DataType::kBfloat16;
  if (t == "fp16" || t == "float16" || t == "half") return doc::DataType::kFloat16;
  if (t == "fp32" || t == "float32" || t == "float") return doc::DataType::kFloat32;
  throw InputError(what + ": `" + text +
                   "` is not an all-reduce type (bfloat16, float16 or float32; give --dtype)");
}

ModelShape model_shape_from_config(const nlohmann::json& config, const std::string& source,
                                   const std::optional<std::string>& dtype_override) {
  if (!config.is_object())
    throw InputError(source + ": expected a JSON object (a Hugging Face config.json)");
  if (const nlohmann::json* text = text_config(config); text != nullptr && !text->is_object()) {
    throw InputError(source + ": key `text_config`: expected an object");
  }
  ModelShape m;
  m.source = source;
  m.hidden =
      required_integer<std::uint64_t>(config, "hidden_size", source, 1, kMaxHidden, m.hidden_key);
  m.layers =
      required_integer<int>(config, "num_hidden_layers", source, 1, kMaxLayers, m.layers_key);
  if (const Found type = find_key(config, "model_type");
      type.value != nullptr && type.value->is_string()) {
    m.name = type.value->get<std::string>();
  }
  if (dtype_override) {
    m.dtype = parse_model_dtype(*dtype_override, "--dtype");
    m.dtype_key = "--dtype";
    return m;
  }
  // Newer transformers releases write `dtype`; older ones `torch_dtype`.
  for (const char* key : {"torch_dtype", "dtype"}) {
    const Found f = find_key(config, key);
    if (f.value == nullptr) continue;
    if (!f.value->is_string())
      throw InputError(source + ": key `" + f.path + "`: expected a string");
    m.dtype = parse_model_dtype(f.value->get<std::string>(), source + ": key `" + f.path + "`");
    m.dtype_key = f.path;
    return m;
  }
  throw InputError(source + ": key `torch_dtype`: missing (nor `dtype`); give --dtype");
}

ModelShape read_model_config(const std::string& path,
                             const std::optional<std::string>& dtype_override) {
  return model_shape_from_config(read_json_file(path), path, dtype_override);
}

ModelShape model_shape_from_options(std::uint64_t hidden, int layers, const std::string& dtype) {
  if (hidden < 1 || hidden > kMaxHidden) {
    throw InputError("--hidden: " + std::to_string(hidden) + " is outside 1.." +
                     std::to_string(kMaxHidden));
  }
  if (layers < 1 || layers > kMaxLayers) {
    throw InputError("--layers: " + std::to_string(layers) + " is outside 1.." +
                     std::to_string(kMaxLayers));
  }
  ModelShape m;
  m.source = "--hidden";
  m.hidden = hidden;
  m.layers = layers;
  m.dtype = parse_model_dtype(dtype, "--dtype");
  m.hidden_key = "--hidden";
  m.layers_key = "--layers";
  m.dtype_key = "--dtype";
  return m;
}

}  // namespace p2p::infer
