// The settings written for each hypervisor, with and without the VM's own config.
#include "vm/snippets.hpp"

#include <gtest/gtest.h>

#include "vm/plan_report.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The K80 host with its driver's word on each switch pair, as a topo -p2p capture would give it.
CliquePlan k80_plan(bool evidence = true) {
  HostView v = testing::host(testing::topology("k80-two-sockets-hwloc1.xml"));
  if (evidence)
    for (const auto& pair : {std::pair<std::size_t, std::size_t>{0, 1}, {2, 3}})
      v.pairs[pair].evidence.push_back({false, EvidenceLevel::kDriver, "driver", "P2P OK"});
  return make_clique_plan(v, select_gpus(v, "", nullptr), 0);
}

TEST(Snippets, ProvisionalGroupsWriteNoSetting) {
  const Snippets s = write_snippets(k80_plan(false), nullptr, "105");
  for (const auto* text : {&s.proxmox, &s.libvirt, &s.qemu, &s.cloud_hypervisor}) {
    EXPECT_FALSE(has(*text, "gpudirect-clique=")) << *text;
    EXPECT_FALSE(has(*text, "gpudirect_clique=")) << *text;
  }
}

TEST(Snippets, EveryHypervisorGetsEachGpusClique) {
  const Snippets s = write_snippets(k80_plan(), nullptr, "105");
  EXPECT_TRUE(has(s.proxmox, "qm set 105 --machine q35 --hostpci0 0000:06:00.0,pcie=1"));
  EXPECT_TRUE(has(s.proxmox,
                  "args: -set device.hostpci0.x-nv-gpudirect-clique=0 -set "
                  "device.hostpci1.x-nv-gpudirect-clique=0 -set "
                  "device.hostpci2.x-nv-gpudirect-clique=1"));
  EXPECT_TRUE(has(s.libvirt, "<address domain='0x0000' bus='0x84' slot='0x00' function='0x0'/>"));
  EXPECT_TRUE(has(s.libvirt,
                  "<qemu:device alias='ua-gpu3'><qemu:frontend><qemu:property "
                  "name='x-nv-gpudirect-clique' type='unsigned' value='1'/>"));
  EXPECT_TRUE(
      has(s.qemu, "-device vfio-pci,host=0000:85:00.0,bus=gpu-port3,x-nv-gpudirect-clique=1"));
  EXPECT_TRUE(
      has(s.cloud_hypervisor, "path=/sys/bus/pci/devices/0000:07:00.0/,x_nv_gpudirect_clique=0"));
}

TEST(Snippets, AProxmoxConfigKeepsItsNumbersOptionsAndOtherArgs) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  VmConfig c = read_vm_config_file(testing::config("proxmox-cliques-clean.conf"));
  c.devices[1].options = "x-vga=1";
  c.args += " -cpu host,+invtsc";
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "", &c), 4);
  const Snippets s = write_snippets(p, &c, "");
  EXPECT_TRUE(has(s.proxmox,
                  "qm set <vmid> --hostpci0 0000:81:00.0,pcie=1 --hostpci1 "
                  "0000:c1:00.0,pcie=1,x-vga=1\n"))
      << s.proxmox;  // machine: q35 is there already
  EXPECT_TRUE(
      has(s.proxmox, "args: -cpu host,+invtsc -set device.hostpci0.x-nv-gpudirect-clique=4"))
      << s.proxmox;
  EXPECT_FALSE(has(s.proxmox, "clique=1")) << "the config's own clique settings are replaced";
}

// The qm lines are pasted into a root shell: a value of the config that a shell would read as more
// than a word (a quote, a semicolon, a $()) is quoted so that it stays one argument.
TEST(Snippets, ConfigValuesInTheQmLinesAreQuotedForTheShell) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  VmConfig c = read_vm_config_file(testing::config("proxmox-cliques-clean.conf"));
  c.devices[1].options = "romfile=x;reboot";
  c.args += R"( -name "it's" -uuid x;$(id))";
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "", &c), 0);
  const Snippets s = write_snippets(p, &c, "105");
  EXPECT_TRUE(has(s.proxmox, "--hostpci1 '0000:c1:00.0,pcie=1,romfile=x;reboot'\n")) << s.proxmox;
  // The config's own words go back as it wrote them ("it's" in its double quotes), and the
  // whole line is one single-quoted word for the shell.
  EXPECT_TRUE(
      has(s.proxmox, "qm set 105 --args '-name \"it'\\''s\" -uuid x;$(id) -set device.hostpci0."))
      << s.proxmox;
  EXPECT_TRUE(has(s.proxmox, "args: -name \"it's\" -uuid x;$(id) -set device.hostpci0."))
      << s.proxmox;
  // A value with nothing a shell reads specially stays bare, as Proxmox's own docs write it.
  EXPECT_TRUE(has(s.proxmox, "--hostpci0 0000:81:00.0,pcie=1 ")) << s.proxmox;
}

// Quoting in the config's args: survives: a word with a space keeps its single quotes, where the
// plan once rewrote it in double quotes (and dropped any quote inside).
TEST(Snippets, TheConfigsArgsWordsGoBackAsWritten) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  VmConfig c = read_vm_config_file(testing::config("proxmox-cliques-clean.conf"));
  c.args = "-smbios 'type=1,product=GPU box' " + c.args + " -fw_cfg \"name=opt/x,string=a\"\"b\"";
  const Snippets s = write_snippets(make_clique_plan(v, select_gpus(v, "", &c), 0), &c, "105");
  EXPECT_TRUE(has(s.proxmox,
                  "args: -smbios 'type=1,product=GPU box' -fw_cfg \"name=opt/x,string=a\"\"b\" "
                  "-set device.hostpci0.x-nv-gpudirect-clique=0"))
      << s.proxmox;
}

// Proxmox passes several devices in one entry ("hostpci1: A;B"): the entry stays one, as written
// (two --hostpci1 options would keep only the last), and each GPU's clique names QEMU's id for
// it, hostpci1.0 and hostpci1.1 (device.hostpci1 does not exist: QEMU would refuse to start).
TEST(Snippets, AnEntryOfSeveralDevicesStaysOneEntryWithDottedIds) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  const VmConfig c = parse_vm_config("machine: q35\nhostpci1: 0000:81:00.0;0000:c1:00.0,pcie=1\n",
                                     "/etc/pve/qemu-server/105.conf");
  ASSERT_EQ(c.devices.size(), 2u);
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "", &c), 0);
  ASSERT_EQ(p.cliques.size(), 1u) << "both GPUs share socket 0's NODE";
  const Snippets s = write_snippets(p, &c, "105");
  EXPECT_TRUE(has(s.proxmox, "qm set 105 --hostpci1 '0000:81:00.0;0000:c1:00.0,pcie=1'\n"))
      << s.proxmox;
  EXPECT_FALSE(has(s.proxmox, "--hostpci2")) << s.proxmox;
  EXPECT_TRUE(has(s.proxmox,
                  "args: -set device.hostpci1.0.x-nv-gpudirect-clique=0 "
                  "-set device.hostpci1.1.x-nv-gpudirect-clique=0\n"))
      << s.proxmox;
}

// A byte a terminal cannot show is printed as "\x1b"; pasted, that would be four characters in the
// config. Such a config gets no qm line, only the lines to edit into the file.
TEST(Snippets, BytesATerminalCannotShowGetNoQmLine) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  VmConfig c = read_vm_config_file(testing::config("proxmox-cliques-clean.conf"));
  c.args += " -name \x1b[31mred";
  const Snippets s = write_snippets(make_clique_plan(v, select_gpus(v, "", &c), 0), &c, "105");
  EXPECT_FALSE(has(s.proxmox, "qm set")) << s.proxmox;
  EXPECT_TRUE(has(s.proxmox, "# no qm line: the config holds bytes a terminal cannot show"))
      << s.proxmox;
  EXPECT_TRUE(has(s.proxmox, "# as lines of /etc/pve/qemu-server/105.conf:\nmachine: q35\n"))
      << s.proxmox;
}

TEST(Snippets, ALibvirtConfigKeepsItsUserAliases) {
  const doctor::Facts f = doctor::load_facts_file(testing::host_facts());
  const HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"), &f);
  const VmConfig c = read_vm_config_file(testing::config("libvirt-cliques-override.xml"));
  const Snippets s = write_snippets(make_clique_plan(v, select_gpus(v, "", &c), 0), &c, "");
  EXPECT_TRUE(has(s.libvirt, "<alias name='ua-gpu6'/>"));
  EXPECT_TRUE(has(s.libvirt, "<qemu:device alias='ua-gpu4'>"));
}

TEST(Snippets, GpusLeftOutArePassedWithoutACliqueAndACaptureNamesNoAddress) {
  const HostView v =
      testing::host(testing::source("import/tests/fixtures/topo-8x-pcie-pix-pxb-sys-numa-na.txt"));
  const CliquePlan p = make_clique_plan(v, select_gpus(v, "0,4", nullptr), 0);
  const Snippets s = write_snippets(p, nullptr, "");
  EXPECT_FALSE(has(s.proxmox, "\nargs:"));
  EXPECT_FALSE(has(s.proxmox, "--args"));
  EXPECT_TRUE(has(s.proxmox, "--hostpci1 <PCI address of GPU4>,pcie=1"));
  EXPECT_FALSE(has(s.libvirt, "qemu:override"));
  EXPECT_TRUE(has(s.qemu, "host=<PCI address of GPU0>,bus=gpu-port0 \\"));
}

}  // namespace
}  // namespace p2p::vm
