// VM configs from public reports (fixtures/configs/README.md names each) and hand-written ones,
// read as Proxmox or libvirt, and files that are neither.
#include "vm/vm_config.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

using testing::config;

std::string config_error_of(const std::string& path) {
  try {
    read_vm_config_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ProxmoxConfig, TheTechnoTimConfigHidesKvmAndPassesAGpuWithoutItsFunction) {
  const VmConfig c = read_vm_config_file(config("proxmox-technotim-100.conf"));
  EXPECT_EQ(c.kind, "proxmox");
  EXPECT_EQ(c.name, "beam");
  EXPECT_EQ(c.machine, "q35");
  EXPECT_NE(c.kvm_hidden.find("hidden=1"), std::string::npos);
  ASSERT_EQ(c.devices.size(), 2u);
  EXPECT_EQ(c.devices[0].address, "02:00");
  EXPECT_EQ(c.devices[0].host_bdf, "0000:02:00.0");
  EXPECT_FALSE(c.devices[0].function_given);
  EXPECT_EQ(c.devices[0].id, "hostpci0.0");  // all functions: the id -set cannot name
  EXPECT_EQ(c.devices[0].pcie, true);
  EXPECT_EQ(c.devices[0].options, "x-vga=1");
  EXPECT_EQ(c.devices[1].id, "hostpci1");
  EXPECT_EQ(c.devices[1].pcie, false);
  EXPECT_TRUE(c.cliques.empty());
}

TEST(ProxmoxConfig, TheClub3090RecipeSetsCliqueOneOnBothWithCommentsStripped) {
  const VmConfig c = read_vm_config_file(config("proxmox-club3090-recipe.conf"));
  EXPECT_TRUE(c.kvm_hidden.empty());
  EXPECT_EQ(c.machine, "");
  ASSERT_EQ(c.devices.size(), 2u);
  EXPECT_EQ(c.devices[0].host_bdf, "0000:81:00.0");
  EXPECT_EQ(c.devices[0].options, "");  // "# explicit .0 — see below" is a comment
  ASSERT_EQ(c.cliques.size(), 2u);
  EXPECT_EQ(c.cliques[1].target, "hostpci1");
  EXPECT_EQ(c.cliques[1].clique, 1);
  EXPECT_EQ(c.cliques[1].how, "args -set");
}

TEST(ProxmoxConfig, TheVmidComesFromTheFileNameAndPendingIsNotTheCurrentConfig) {
  const VmConfig c = parse_vm_config("memory: 4096\ncpu: host\n", "/etc/pve/qemu-server/105.conf");
  EXPECT_EQ(c.vmid, "105");
  const VmConfig pending = read_vm_config_file(config("proxmox-all-functions-clique-16.conf"));
  EXPECT_TRUE(pending.has_pending);
  EXPECT_NE(pending.kvm_hidden.find("hidden=1"), std::string::npos)  // the [PENDING] cpu: is not it
      << pending.kvm_hidden;
  ASSERT_EQ(pending.cliques.size(), 3u);
  EXPECT_EQ(pending.cliques[1].clique, 16);
}

TEST(LibvirtConfig, TheThreadripperDomainHidesKvmAndPassesFiveDevices) {
  const VmConfig c = read_vm_config_file(config("libvirt-threadripper-compromisedbeast.xml"));
  EXPECT_EQ(c.kind, "libvirt");
  EXPECT_EQ(c.name, "CompromisedBeast");
  EXPECT_EQ(c.machine, "pc-q35-4.1");
  EXPECT_EQ(c.kvm_hidden, "<kvm><hidden state='on'/>");
  EXPECT_TRUE(c.qemu_namespace);
  ASSERT_EQ(c.devices.size(), 5u);
  EXPECT_EQ(c.devices[1].host_bdf, "0000:0d:00.0");
  EXPECT_EQ(c.devices[1].id, "hostdev1");
  EXPECT_EQ(c.devices[1].guest_bus, "pcie-root-port");
  EXPECT_FALSE(c.devices[1].user_alias);
  EXPECT_TRUE(c.emulated_switches.empty());
  EXPECT_TRUE(c.cliques.empty());
}

TEST(LibvirtConfig, OverrideCliquesSwitchesAndCommandlineSets) {
  const VmConfig clean = read_vm_config_file(config("libvirt-cliques-override.xml"));
  ASSERT_EQ(clean.cliques.size(), 2u);
  EXPECT_EQ(clean.cliques[0].target, "ua-gpu4");
  EXPECT_EQ(clean.cliques[0].how, "qemu:override");
  EXPECT_TRUE(clean.devices[0].user_alias);
  const VmConfig sw = read_vm_config_file(config("libvirt-switch-commandline.xml"));
  EXPECT_EQ(sw.emulated_switches.size(), 3u);
  EXPECT_EQ(sw.devices[0].guest_bus, "pcie-switch-downstream-port");
  EXPECT_EQ(sw.devices[1].guest_bus, "pcie-to-pci-bridge");
  ASSERT_EQ(sw.cliques.size(), 2u);
  EXPECT_EQ(sw.cliques[0].how, "qemu:commandline -set");
  const VmConfig undeclared = read_vm_config_file(config("libvirt-no-qemu-namespace.xml"));
  EXPECT_FALSE(undeclared.qemu_namespace);
  EXPECT_EQ(undeclared.undeclared_qemu.size(), 1u);
}

TEST(VmConfig, AFileThatIsNoConfigIsOneLineNamingIt) {
  const std::string json = testing::topology("policy-rtxpro6000.json");
  EXPECT_EQ(config_error_of(json),
            json +
                ": JSON, not a Proxmox VM config (/etc/pve/qemu-server/<vmid>.conf) "
                "or libvirt domain XML (virsh dumpxml)");
  const std::string script = testing::source("vm/tests/fixtures/not-configs/qm-set.sh");
  // The shebang reads as a comment line (Proxmox's description); the command is not a setting.
  EXPECT_EQ(config_error_of(script), script +
                                         ": line 2: 'qm set 105 --hostpci0 0000:81:00.0' is not a "
                                         "Proxmox `key: value` line, and the file is no libvirt "
                                         "domain XML");
  const std::string hwloc = testing::topology("h200-vm.xml");
  EXPECT_NE(config_error_of(hwloc).find("not a libvirt <domain>"), std::string::npos)
      << config_error_of(hwloc);
  const std::string broken = testing::source("vm/tests/fixtures/not-configs/broken-domain.xml");
  EXPECT_NE(config_error_of(broken).find("line 5: not well-formed XML"), std::string::npos)
      << config_error_of(broken);
  EXPECT_NE(config_error_of(config("no-such.conf")).find("no-such.conf"), std::string::npos);
  EXPECT_NE(config_error_of(testing::source("README.md")).find("is not a Proxmox"),
            std::string::npos);
}

TEST(VmConfig, LongLinesAreReadWithoutRecursion) {
  // An args: line just under its 64 KiB ceiling, of two words of 30,000 bytes.
  const std::string huge(30000, 'a');
  const VmConfig c = parse_vm_config(
      "memory: 1\nargs: -set device." + huge + ".x-nv-gpudirect-clique=2 -device vfio-pci," + huge,
      "long.conf");
  ASSERT_EQ(c.cliques.size(), 1u);
  EXPECT_EQ(c.cliques[0].target.size(), huge.size());
  const std::string mebibyte(1u << 20, 'a');
  EXPECT_THROW(parse_vm_config(mebibyte + ": 1\n", "long.conf"), InputError);
  EXPECT_THROW(parse_vm_config("memory: 1\nargs: -set device." + mebibyte, "long.conf"),
               InputError);
  std::string deep = "<domain>";
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  EXPECT_THROW(parse_vm_config(deep, "deep.xml"), InputError);
}

TEST(VmConfig, PciAddressesAreNormalised) {
  bool function = true;
  EXPECT_EQ(normalize_pci_address("81:00", &function), "0000:81:00.0");
  EXPECT_FALSE(function);
  EXPECT_EQ(normalize_pci_address("0000:C1:00.1", &function), "0000:c1:00.1");
  EXPECT_TRUE(function);
  EXPECT_EQ(normalize_pci_address("mapping"), "");
  EXPECT_EQ(normalize_pci_address("0000:81:00.9"), "");
  EXPECT_EQ(split_args("-set 'device.a=1 b' -cpu \"host,kvm=off\""),
            (std::vector<std::string>{"-set", "device.a=1 b", "-cpu", "host,kvm=off"}));
}

}  // namespace
}  // namespace p2p::vm
