// The traps in real and hand-written VM configs (fixtures/configs/README.md).
#include "vm/config_traps.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "vm/plan_report.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

std::vector<std::string> ids(const std::vector<Trap>& traps) {
  std::vector<std::string> out;
  for (const auto& t : traps) out.push_back(t.id);
  return out;
}

std::vector<Trap> traps_of(const std::string& name) {
  return check_traps(read_vm_config_file(testing::config(name)), nullptr, nullptr);
}

const Trap& first(const std::vector<Trap>& traps, const std::string& id) {
  const auto it =
      std::find_if(traps.begin(), traps.end(), [&](const Trap& t) { return t.id == id; });
  if (it == traps.end()) throw std::runtime_error("no trap " + id);
  return *it;
}

TEST(ConfigTraps, TechnoTimHasHiddenKvmAFunctionlessEntryAndAGpuWithoutPcie) {
  const auto traps = traps_of("proxmox-technotim-100.conf");
  EXPECT_EQ(ids(traps), (std::vector<std::string>{"kvm_hidden", "no_function", "no_pcie"}));
  EXPECT_NE(first(traps, "no_function").what.find("hostpci0.0"), std::string::npos);
  EXPECT_EQ(first(traps, "no_function").fix, "hostpci0: 0000:02:00.0,pcie=1");
  EXPECT_NE(first(traps, "kvm_hidden").fix.find("remove hidden=1"), std::string::npos);
}

TEST(ConfigTraps, TheClub3090RecipeOnlyLacksAMachineLine) {
  const auto traps = traps_of("proxmox-club3090-recipe.conf");
  EXPECT_EQ(ids(traps), std::vector<std::string>{"machine"});
  EXPECT_NE(traps[0].what.find("no machine: line"), std::string::npos);
}

TEST(ConfigTraps, ACleanProxmoxAndACleanLibvirtConfigHaveNone) {
  EXPECT_TRUE(traps_of("proxmox-cliques-clean.conf").empty());
  EXPECT_TRUE(traps_of("libvirt-cliques-override.xml").empty());
}

TEST(ConfigTraps, EveryTrapOfTheBadProxmoxConfig) {
  const auto traps = traps_of("proxmox-all-functions-clique-16.conf");
  EXPECT_EQ(ids(traps), (std::vector<std::string>{"machine", "kvm_hidden", "no_function", "no_pcie",
                                                  "clique_target", "clique_id", "clique_target"}));
  EXPECT_NE(first(traps, "clique_id").what.find("clique 16: QEMU refuses IDs outside 0-15"),
            std::string::npos)
      << first(traps, "clique_id").what;
}

TEST(ConfigTraps, TheThreadripperDomainHidesKvm) {
  EXPECT_EQ(ids(traps_of("libvirt-threadripper-compromisedbeast.xml")),
            std::vector<std::string>{"kvm_hidden"});
}

TEST(ConfigTraps, EmulatedSwitchesConventionalBridgesAndCommandlineSets) {
  const auto traps = traps_of("libvirt-switch-commandline.xml");
  EXPECT_EQ(ids(traps), (std::vector<std::string>{
                            "kvm_hidden", "emulated_switch", "emulated_switch", "emulated_switch",
                            "conventional_bus", "commandline_set", "commandline_set"}));
  EXPECT_NE(first(traps, "commandline_set").what.find("libvirt issue 287"), std::string::npos);
  EXPECT_EQ(ids(traps_of("libvirt-no-qemu-namespace.xml")),
            std::vector<std::string>{"qemu_namespace"});
}

TEST(ConfigTraps, WithTheHostTheIommuGroupAndThePlansCliquesAreChecked) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  const VmConfig c = read_vm_config_file(testing::config("proxmox-cliques-clean.conf"));
  const auto selected = select_gpus(v, "", &c);
  EXPECT_EQ(selected, (std::vector<std::size_t>{4, 6}));
  const CliquePlan plan = make_clique_plan(v, selected, 1);
  const auto traps = check_traps(c, &v, &plan);
  EXPECT_EQ(ids(traps), std::vector<std::string>{"iommu_group"});
  EXPECT_NE(traps[0].what.find("shares IOMMU group 26 with 0000:c2:00.0"), std::string::npos);
  const CliquePlan other = make_clique_plan(v, selected, 0);
  EXPECT_EQ(ids(check_traps(c, &v, &other)),
            (std::vector<std::string>{"iommu_group", "clique_differs", "clique_differs"}));
}

}  // namespace
}  // namespace p2p::vm
