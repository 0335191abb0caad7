// The traps in real and hand-written VM configs (fixtures/configs/README.md).
#include "vm/config_traps.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "common/file_io.hpp"
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

// A key given twice (Proxmox keeps one of them) and an address that is not one (that device
// passes no GPU, and the plan would leave the GPU out without a word) are traps with their line.
TEST(ConfigTraps, ADuplicateEntryAndABadAddressAreNamedWithTheirLines) {
  const VmConfig c = parse_proxmox_config(
      "machine: q35\nhostpci0: 0000:81:00.0,pcie=1\nhostpci1: 0000:c1:00.0,pcie=1\n"
      "hostpci1: 0000:c2:00.0,pcie=1\nhostpci2: 0000:4x:00.0,pcie=1\n",
      "105.conf");
  const auto traps = check_traps(c, nullptr, nullptr);
  std::vector<std::string> entries;
  for (const auto& t : traps)
    if (t.id == "config_entry") entries.push_back(t.what);
  EXPECT_EQ(entries, (std::vector<std::string>{
                         "line 4: hostpci1 given again (first on line 3): Proxmox keeps only one "
                         "of them",
                         "line 5: hostpci2's address '0000:4x:00.0' is not a PCI address "
                         "(0000:41:00.0)"}));
}

// The same in a libvirt domain: a <hostdev> whose source address is not one is a trap with its
// line, where the GPU left the plan without a word; and a clique value that is no number is
// quoted as written ('abc'), never as the -1 it was read into.
TEST(ConfigTraps, ALibvirtSourceAddressThatIsNotOneIsNamedWithItsLine) {
  const VmConfig c = parse_vm_config(
      "<domain type='kvm'>\n<os><type machine='q35'>hvm</type></os>\n<devices>\n"
      "<hostdev mode='subsystem' type='pci' managed='yes'>\n"
      "<source><address domain='0x0000' bus='0xcx' slot='0x00' function='0x0'/></source>\n"
      "</hostdev>\n</devices>\n</domain>\n",
      "vm.xml");
  std::vector<std::string> entries;
  for (const auto& t : check_traps(c, nullptr, nullptr))
    if (t.id == "config_entry") entries.push_back(t.what);
  EXPECT_EQ(entries, (std::vector<std::string>{
                         "line 5: hostdev #1's source address (domain '0x0000', bus '0xcx', "
                         "slot '0x00', function '0x0') is not a PCI address"}));
}

// A megabyte args: line would be split into a million clique settings: refused, naming its line.
TEST(ConfigTraps, AnArgsLinePastItsCeilingIsOneLineNamingIt) {
  std::string args = "args:";
  while (args.size() <= 64 * 1024) args += " -set device.hostpci0.x-nv-gpudirect-clique=1";
  try {
    parse_proxmox_config("machine: q35\n" + args + "\n", "105.conf");
    FAIL() << "an args: line of " << args.size() << " bytes was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("105.conf: line 2: args: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than the 65536 an args: line p2pcheck reads holds"),
              std::string::npos)
        << e.what();
  }
}

// A clique that is not a number is named as written, not as "clique -1".
TEST(ConfigTraps, ACliqueThatIsNotANumberIsShownAsWritten) {
  const VmConfig c = parse_proxmox_config(
      "machine: q35\nhostpci0: 0000:81:00.0,pcie=1\n"
      "args: -set device.hostpci0.x-nv-gpudirect-clique=abc\n",
      "105.conf");
  const auto traps = check_traps(c, nullptr, nullptr);
  EXPECT_EQ(first(traps, "clique_id").what,
            "args -set for hostpci0 sets clique 'abc', which is not a whole number: QEMU refuses "
            "IDs outside 0-15 (four bits), and the VM does not start");
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
  // A clique the config writes as no number is quoted as written, not as the -1 it was read as.
  std::string text = read_text_file(testing::config("proxmox-cliques-clean.conf"));
  text.replace(text.find("hostpci0.x-nv-gpudirect-clique=1"), 32,
               "hostpci0.x-nv-gpudirect-clique=abc");
  const VmConfig abc = parse_proxmox_config(text, "105.conf");
  EXPECT_EQ(first(check_traps(abc, &v, &plan), "clique_differs").what,
            "hostpci0 is set to clique abc, the plan puts it in clique 1");
}

}  // namespace
}  // namespace p2p::vm
