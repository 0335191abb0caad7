#include "hardware/knowledge_base.hpp"

#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "hardware/model_match.hpp"
#include "hardware/tests/test_base.hpp"

namespace p2p::hw {
namespace {

using testing::figures_json;
using testing::links_json;
using testing::models_json;

std::string parse_error(const nlohmann::json& models, const nlohmann::json& links,
                        const nlohmann::json& figures) {
  try {
    parse_knowledge_base(models, links, figures, "test");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KnowledgeBase, ReadsModelsLinksAndFigures) {
  const KnowledgeBase kb = testing::test_base();
  ASSERT_EQ(kb.models.size(), 3u);
  const GpuModel* m = kb.model("rtx-4090");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->p2p_over_pcie, P2pPolicy::kRefusedByStockDriver);
  EXPECT_EQ(kb.figures_of("pro-server").size(), 6u);
  EXPECT_NEAR(*pcie_gbps(kb, 5, 16), 63.015, 0.001);
  EXPECT_NEAR(*pcie_gbps(kb, 4, 4), 7.877, 0.001);  // the x4 link of a sick slot
  EXPECT_FALSE(pcie_gbps(kb, 3, 16));               // not in this base: no guess
  EXPECT_DOUBLE_EQ(*nvlink_gbps(kb, 4, 18), 450);
  EXPECT_FALSE(nvlink_gbps(kb, 5, 18));
}

TEST(KnowledgeBase, RefusesAFactWithoutItsSource) {
  nlohmann::json models = models_json();
  models["models"][0]["sources"].erase("pcie");
  EXPECT_NE(
      parse_error(models, links_json(), figures_json()).find("'pcie' is known but has no source"),
      std::string::npos);
}

TEST(KnowledgeBase, RefusesASourceThatIsNoAddress) {
  nlohmann::json figures = figures_json();
  figures["figures"][0]["source"] = "a forum post";
  EXPECT_NE(
      parse_error(models_json(), links_json(), figures).find("figures[0].source: expected a URL"),
      std::string::npos);
}

TEST(KnowledgeBase, RefusesOneNameOrPciIdForTwoModels) {
  nlohmann::json models = models_json();
  models["models"][1]["aliases"] = {"RTX-PRO-6000 blackwell server edition"};
  EXPECT_NE(parse_error(models, links_json(), figures_json())
                .find("belongs to both pro-server and pro-workstation"),
            std::string::npos);
  models = models_json();
  models["models"][2]["pci_ids"] = {"10de:2bb5"};
  EXPECT_NE(
      parse_error(models, links_json(), figures_json()).find("PCI ID 10de:2bb5 belongs to both"),
      std::string::npos);
}

TEST(KnowledgeBase, RefusesAFigureOfAnUnknownModelAndAWrongUnit) {
  nlohmann::json figures = figures_json();
  figures["figures"][0]["model"] = "rtx-9999";
  EXPECT_NE(parse_error(models_json(), links_json(), figures).find("'rtx-9999' is no model"),
            std::string::npos);
  figures = figures_json();
  figures["figures"][3]["unit"] = "GB/s";
  EXPECT_NE(
      parse_error(models_json(), links_json(), figures).find("expected us for p2p_latency_us"),
      std::string::npos);
}

TEST(KnowledgeBase, RefusesATypoInAKeyAndABadPciId) {
  nlohmann::json models = models_json();
  models["models"][0]["pcie"] = {{"gen", 5}, {"width", 16}, {"lanes", 16}};
  EXPECT_NE(parse_error(models, links_json(), figures_json()).find("unknown key 'lanes'"),
            std::string::npos);
  models = models_json();
  models["models"][0]["pci_ids"] = {"10DE:2BB5"};
  EXPECT_NE(parse_error(models, links_json(), figures_json()).find("pci_ids[0]: expected 10de:"),
            std::string::npos);
}

// The built-in base, as the executable carries it: readable, and complete where the verdicts
// lean on it.
TEST(BuiltinKnowledgeBase, IsReadableAndEveryFigureHasASource) {
  const KnowledgeBase& kb = builtin_knowledge_base();
  EXPECT_GE(kb.models.size(), 40u);
  for (const auto& f : kb.figures) EXPECT_FALSE(f.source.empty()) << f.model << " " << f.metric;
  for (int gen = 1; gen <= 6; ++gen) EXPECT_TRUE(kb.pcie_generation(gen)) << gen;
  for (int nv = 1; nv <= 5; ++nv) EXPECT_TRUE(kb.nvlink_generation(nv)) << nv;
  // Every PCIe generation's rate as the PCI-SIG defines it, x16 one way.
  EXPECT_NEAR(*pcie_gbps(kb, 3, 16), 15.754, 0.001);
  EXPECT_NEAR(*pcie_gbps(kb, 4, 16), 31.508, 0.001);
  EXPECT_NEAR(*pcie_gbps(kb, 5, 16), 63.015, 0.001);
}

TEST(BuiltinKnowledgeBase, KnowsTheRtxPro6000FamilyWhole) {
  const KnowledgeBase& kb = builtin_knowledge_base();
  std::set<std::string> ids;
  for (const char* name : {"NVIDIA RTX PRO 6000 Blackwell Server Edition",
                           "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
                           "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"}) {
    const ModelMatch found = identify_model(kb, name);
    ASSERT_NE(found.model, nullptr) << name;
    const GpuModel& m = *found.model;
    EXPECT_EQ(m.architecture, "Blackwell") << name;
    ASSERT_TRUE(m.pcie) << name;
    EXPECT_EQ(m.pcie->gen, 5) << name;
    EXPECT_EQ(m.pcie->width, 16) << name;
    EXPECT_EQ(m.p2p_over_pcie, P2pPolicy::kGranted) << name;
    EXPECT_EQ(m.open_kernel_module_required, true) << name;
    EXPECT_FALSE(m.pci_ids.empty()) << name;
    for (const auto& id : m.pci_ids) EXPECT_TRUE(ids.insert(id).second) << id;
  }
  const ModelMatch server = identify_model(kb, "10de:2bb5");
  ASSERT_NE(server.model, nullptr);
  EXPECT_NE(server.model->name.find("Server Edition"), std::string::npos);
  EXPECT_FALSE(kb.figures_of(server.model->key).empty());
}

TEST(BuiltinKnowledgeBase, GeForceBoardsAreRefusedP2pByTheStockDriver) {
  const KnowledgeBase& kb = builtin_knowledge_base();
  for (const char* name : {"NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 5090"}) {
    const ModelMatch found = identify_model(kb, name);
    ASSERT_NE(found.model, nullptr) << name;
    EXPECT_EQ(found.model->segment, "geforce");
    EXPECT_EQ(found.model->p2p_over_pcie, P2pPolicy::kRefusedByStockDriver) << name;
  }
}

}  // namespace
}  // namespace p2p::hw
