#include "infer/model_config.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace p2p::infer {
namespace {

const std::string kFixtures = std::string(P2P_SOURCE_DIR) + "/infer/tests/fixtures/";

std::string error_of(const nlohmann::json& config,
                     const std::optional<std::string>& dtype = std::nullopt) {
  try {
    model_shape_from_config(config, "cfg.json", dtype);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelConfig, ReadsAPlainDecoder) {
  const ModelShape m = read_model_config(kFixtures + "llama-3-70b-config.json", std::nullopt);
  EXPECT_EQ(m.hidden, 8192u);
  EXPECT_EQ(m.layers, 80);
  EXPECT_EQ(m.dtype, doc::DataType::kBfloat16);
  EXPECT_EQ(m.name, "llama");
  EXPECT_EQ(m.hidden_key, "hidden_size");
  EXPECT_EQ(m.dtype_key, "torch_dtype");
}

TEST(ModelConfig, TakesTheTextModelOfAMultimodalConfigNotTheVisionTower) {
  const ModelShape m = read_model_config(kFixtures + "llava-7b-config.json", std::nullopt);
  EXPECT_EQ(m.hidden, 4096u);  // vision_config.hidden_size is 1024
  EXPECT_EQ(m.layers, 32);     // vision_config has 24
  EXPECT_EQ(m.dtype, doc::DataType::kFloat16);
  EXPECT_EQ(m.hidden_key, "text_config.hidden_size");
  EXPECT_EQ(m.name, "llama");
}

TEST(ModelConfig, ReadsTheNewerDtypeKey) {
  const ModelShape m = read_model_config(kFixtures + "qwen3-8b-dtype-config.json", std::nullopt);
  EXPECT_EQ(m.hidden, 4096u);
  EXPECT_EQ(m.layers, 36);
  EXPECT_EQ(m.dtype_key, "dtype");
}

TEST(ModelConfig, TextConfigFallsBackToTheTopLevelKeyByKey) {
  const auto j =
      nlohmann::json::parse(R"({"hidden_size": 5120, "text_config": {"num_hidden_layers": 40},
                                           "torch_dtype": "bfloat16"})");
  const ModelShape m = model_shape_from_config(j, "cfg.json", std::nullopt);
  EXPECT_EQ(m.hidden, 5120u);
  EXPECT_EQ(m.hidden_key, "hidden_size");
  EXPECT_EQ(m.layers_key, "text_config.num_hidden_layers");
}

TEST(ModelConfig, DtypeOptionOverridesTheFile) {
  const auto j = nlohmann::json::parse(
      R"({"hidden_size": 8, "num_hidden_layers": 2, "torch_dtype": "float8_e4m3fn"})");
  const ModelShape m = model_shape_from_config(j, "cfg.json", std::string("fp16"));
  EXPECT_EQ(m.dtype, doc::DataType::kFloat16);
  EXPECT_EQ(m.dtype_key, "--dtype");
}

TEST(ModelConfig, ErrorsNameTheFileAndTheKey) {
  EXPECT_EQ(
      error_of(nlohmann::json::parse(R"({"num_hidden_layers": 2, "torch_dtype": "bfloat16"})")),
      "cfg.json: key `hidden_size`: missing (looked at the top level and in `text_config`)");
  const std::string wrong_type = error_of(nlohmann::json::parse(
      R"({"hidden_size": "8192", "num_hidden_layers": 2, "torch_dtype": "bfloat16"})"));
  EXPECT_EQ(wrong_type.rfind("cfg.json: key `hidden_size`: expected an integer", 0), 0u)
      << wrong_type;
  const std::string nested = error_of(nlohmann::json::parse(
      R"({"text_config": {"hidden_size": -4, "num_hidden_layers": 2}, "torch_dtype": "bfloat16"})"));
  EXPECT_EQ(nested.rfind("cfg.json: key `text_config.hidden_size`: expected an integer", 0), 0u)
      << nested;
  const std::string fp8 = error_of(nlohmann::json::parse(
      R"({"hidden_size": 8, "num_hidden_layers": 2, "torch_dtype": "float8_e4m3fn"})"));
  EXPECT_NE(fp8.find("cfg.json: key `torch_dtype`: `float8_e4m3fn` is not an all-reduce type"),
            std::string::npos)
      << fp8;
  EXPECT_EQ(error_of(nlohmann::json::parse(R"({"hidden_size": 8, "num_hidden_layers": 2})")),
            "cfg.json: key `torch_dtype`: missing (nor `dtype`); give --dtype");
  EXPECT_EQ(error_of(nlohmann::json::parse("[1, 2]")),
            "cfg.json: expected a JSON object (a Hugging Face config.json)");
  EXPECT_EQ(error_of(nlohmann::json::parse(R"({"text_config": 3})")),
            "cfg.json: key `text_config`: expected an object");
  EXPECT_NE(error_of(nlohmann::json::parse(
                         R"({"hidden_size": 8, "num_hidden_layers": 0, "torch_dtype": "bf16"})"))
                .find("key `num_hidden_layers`"),
            std::string::npos);
}

TEST(ModelConfig, AMissingOrBrokenFileIsOneLineNamingIt) {
  try {
    read_model_config("/nonexistent/config.json", std::nullopt);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/config.json"), std::string::npos)
        << e.what();
  }
  try {
    read_model_config(kFixtures + "README.md", std::nullopt);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
}

TEST(ModelConfig, OptionsAreCheckedLikeTheFile) {
  const ModelShape m = model_shape_from_options(8192, 80, "bf16");
  EXPECT_EQ(m.hidden, 8192u);
  EXPECT_EQ(m.dtype, doc::DataType::kBfloat16);
  EXPECT_THROW(model_shape_from_options(0, 80, "bf16"), InputError);
  EXPECT_THROW(model_shape_from_options(8192, 0, "bf16"), InputError);
  EXPECT_THROW(model_shape_from_options(8192, 80, "int8"), InputError);
  EXPECT_EQ(parse_model_dtype("torch.float32", "x"), doc::DataType::kFloat32);
  EXPECT_EQ(parse_model_dtype("BF16", "x"), doc::DataType::kBfloat16);
}

}  // namespace
}  // namespace p2p::infer
