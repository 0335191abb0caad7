// The built p2pcheck: vm plan on real host topologies with and without facts and VM configs, vm
// compare on the seed story, topo diff of a VM against its host, and bad input (exit 2, one line).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::CliResult;

std::string at(const std::string& relative) { return std::string(P2P_SOURCE_DIR) + "/" + relative; }

CliResult p2pcheck(const std::string& args) {
  return p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " " + args);
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

void expect_one_line_error(const CliResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(has(r.err, what)) << r.err;
  EXPECT_EQ(r.out, "");
}

const std::string kK80 = "--topology " + at("topology/tests/fixtures/k80-two-sockets-hwloc1.xml");
const std::string kRtx = "--topology " + at("topology/tests/fixtures/rtxpro6000-lxc.xml") +
                         " --facts " + at("vm/tests/fixtures/hosts/rtxpro6000-lxc-facts.json");

TEST(VmPlanCli, PlansCliquesAndPrintsEveryHypervisorsSettings) {
  const CliResult r = p2pcheck("vm plan " + kK80);
  // From the topology alone every clique is a guess: exit 1, and the last line says what proves it.
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(has(r.out, "provisional  GPU0 (0000:06:00.0), GPU1 (0000:07:00.0)"));
  // The verdict line is last; the line that says how to prove the pairs is before it.
  const std::size_t verdict = r.out.rfind('\n', r.out.size() - 2) + 1;
  EXPECT_EQ(r.out.substr(verdict).rfind("p2pcheck vm plan: FAIL — 2 pair(s) rest on the path class "
                                        "alone: prove them on the host",
                                        0),
            0u)
      << r.out;
  const std::size_t proof = r.out.rfind("\nProvisional: ", verdict) + 1;
  const std::string last = r.out.substr(proof, verdict - proof);
  EXPECT_EQ(last.rfind("Provisional: 2 pair(s) rest on the path class alone", 0), 0u) << last;
  EXPECT_TRUE(has(last, "p2pcheck doctor --save-facts")) << last;
  EXPECT_FALSE(has(r.out, "gpudirect_clique=")) << "a provisional group gets no setting";
  // With the host's facts, the cliques and every hypervisor's settings.
  const CliResult f = p2pcheck("vm plan " + kRtx);
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_TRUE(has(f.out, "evidence: every pair's peer copy verified on the host")) << f.out;
  for (const char* section : {"\nProxmox:\n", "\nlibvirt:\n", "\nQEMU:\n", "\ncloud-hypervisor:\n"})
    EXPECT_TRUE(has(f.out, section)) << section;
  EXPECT_TRUE(has(f.out, "x_nv_gpudirect_clique=1"));
  // One hypervisor where one is asked for, or where the VM's config says which; JSON has all.
  const CliResult one = p2pcheck("vm plan " + kRtx + " --hypervisor libvirt");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(has(one.out, "\nlibvirt:\n"));
  for (const char* other : {"\nProxmox:\n", "\nQEMU:\n", "\ncloud-hypervisor:\n"})
    EXPECT_FALSE(has(one.out, other)) << other;
  EXPECT_TRUE(has(one.out, "(for another hypervisor: --hypervisor proxmox|libvirt|qemu|"));
  EXPECT_LT(std::count(one.out.begin(), one.out.end(), '\n'),
            std::count(f.out.begin(), f.out.end(), '\n') - 15);
  const CliResult json = p2pcheck("vm plan " + kRtx + " --hypervisor libvirt --format json");
  EXPECT_EQ(nlohmann::json::parse(json.out).at("snippets").size(), 4u);
  EXPECT_EQ(p2pcheck("vm plan " + kRtx + " --hypervisor vmware").exit_code, 2);
}

// What the H200 guest runs on its own snapshot (the real capture and facts of the project's VM).
TEST(VmPlanCli, OneGpuNeedsNoCliqueAndAGuestSnapshotIsSaidToBeOne) {
  const CliResult r = p2pcheck("vm plan --topology " + at("topology/tests/golden/h200-vm.json") +
                               " --facts " + at("doctor/tests/fixtures/h200-vm-real.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "none needed: one GPU has no peer")) << r.out;
  EXPECT_TRUE(has(r.out, "this host is itself a VM")) << r.out;
  EXPECT_TRUE(has(r.out, "hostpci0: 0000:00:06.0,pcie=1")) << r.out;
}

TEST(VmPlanCli, JsonLikeEveryOtherCommand) {
  const CliResult r = p2pcheck("vm plan " + kRtx + " --gpus 0,4 --format json");
  EXPECT_EQ(r.exit_code, 1) << "GPUs on two sockets share no clique";
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("schema"), "p2pcheck.vm_plan");
  EXPECT_EQ(j.at("cliques").size(), 0u);
  EXPECT_EQ(j.at("pairs").at(0).at("reason"),
            "the host's driver refuses P2P: CHIPSET_NOT_SUPPORTED");
  EXPECT_FALSE(j.at("complete").get<bool>());
}

TEST(VmPlanCli, TheVmConfigsTrapsAndGpus) {
  const CliResult r = p2pcheck("vm plan " + kRtx + " --first-clique 1 --vm-config " +
                               at("vm/tests/fixtures/configs/proxmox-club3090-recipe.conf"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.out, "GPUs for the VM: GPU4, GPU6")) << r.out;
  EXPECT_TRUE(has(r.out, "✘ machine: no machine: line")) << r.out;
  EXPECT_TRUE(has(r.out, "✘ iommu_group: hostpci1 (0000:c1:00.0) shares IOMMU group 26")) << r.out;
  EXPECT_FALSE(has(r.out, "clique_differs")) << "the recipe's clique 1 is the plan's";
}

TEST(VmPlanCli, BadInputIsOneLineExitTwo) {
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --gpus 0,7"),
                        "--gpus: GPU 7 is not on this host");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --gpus 0000:41:00.0"),
                        "--gpus: 0000:41:00.0 is not a GPU of this host");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --first-clique 16"),
                        "--first-clique: `16` is not a whole number from 0 to 15");
  // The VM id is printed into qm lines that are pasted into a root shell: only Proxmox's ids
  // (100 to 999999999) pass. Empty values are refused, never read as "not given".
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vmid '105; rm -rf /'"),
                        "--vmid: `105; rm -rf /` is not a whole number from 100 to 999999999");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vmid 99"),
                        "--vmid: `99` is not a whole number from 100 to 999999999");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vmid ''"),
                        "--vmid: `` is not a whole number from 100 to 999999999");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --first-clique ''"),
                        "--first-clique: `` is not a whole number from 0 to 15");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --gpus ''"),
                        "--gpus: the value is empty; give host GPU indexes or PCI addresses");
  expect_one_line_error(p2pcheck("vm plan " + kRtx + " --first-clique 15"),
                        "up to ID 16, but clique IDs are 0-15");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --p2p /nonexistent-p2p.txt"),
                        "/nonexistent-p2p.txt");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --p2p " +
                                 at("import/tests/fixtures/nccl-tests-1x-rtx5090-all_reduce.txt")),
                        "no P2P evidence");
  expect_one_line_error(
      p2pcheck("vm plan " + kK80 + " --p2p " +
               at("import/tests/fixtures/p2p-bandwidth-latency-16x-v100-dgx2-p2p-read.txt")),
      "it names GPU4, but the topology has 4 GPUs");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --nccl-topo /tmp/p2pcheck-never.xml"),
                        "--nccl-topo needs the GPUs' bus ids in the guest");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --gpus 0,1 --nccl-topo " +
                                 "/tmp/p2pcheck-never.xml --guest-bus-ids 01:00.0,01:00.0"),
                        "guest bus id 0000:01:00.0 given twice");
  EXPECT_FALSE(std::filesystem::exists("/tmp/p2pcheck-never.xml")) << "nothing half-written";
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vm-config " +
                                 at("topology/tests/fixtures/policy-rtxpro6000.json")),
                        "JSON, not a Proxmox VM config");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vm-config " +
                                 at("vm/tests/fixtures/not-configs/broken-domain.xml")),
                        "line 5: not well-formed XML");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vm-config /nonexistent.conf"),
                        "/nonexistent.conf");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --facts " +
                                 at("vm/tests/fixtures/hosts/rtxpro6000-lxc-facts.json")),
                        "none of its 8 GPUs is in the topology");
  expect_one_line_error(p2pcheck("vm plan " + kK80 + " --vm-config " +
                                 at("vm/tests/fixtures/configs/proxmox-technotim-100.conf")),
                        "passes none of this host's GPUs");
  expect_one_line_error(p2pcheck("vm plan --topology /nonexistent.xml"), "/nonexistent.xml");
  expect_one_line_error(p2pcheck("vm"), "");
}

// A config's name reaches the text output: an escape sequence (here one that clears the screen)
// or a byte that is not UTF-8 is written as an escape, never sent to the terminal.
TEST(VmPlanCli, ControlBytesOfTheConfigReachTheTerminalEscaped) {
  const p2p::TempDir tmp("p2p_vm_name");
  p2p::write_text_file_atomically(
      tmp.file("105.conf"),
      "machine: q35\nname: evil\x1b[2Jvm\xff\nhostpci0: 0000:06:00.0,pcie=1\nmemory: 1024\n");
  const CliResult r = p2pcheck("vm plan " + kK80 + " --vm-config " + tmp.file("105.conf"));
  EXPECT_TRUE(has(r.out, "(proxmox, evil\\x1b[2Jvm\\xff)")) << r.out;
  EXPECT_FALSE(has(r.out, "\x1b")) << "an escape byte reached the terminal";
}

TEST(VmPlanCli, FactsWithACliqueOver15AreBadInput) {
  const p2p::TempDir dir("vm-cli");
  auto facts = nlohmann::json::parse(
      p2p::read_text_file(at("vm/tests/fixtures/hosts/rtxpro6000-lxc-facts.json")));
  facts["vfio"]["gpudirect"]["value"][0] = {{"bdf", "0000:01:00.0"},
                                            {"state", "present"},
                                            {"clique", 16},
                                            {"offset", 200},
                                            {"detail", ""}};
  const std::string path = dir.file("facts.json");
  p2p::write_text_file_atomically(path, facts.dump());
  expect_one_line_error(
      p2pcheck("vm plan --topology " + at("topology/tests/fixtures/rtxpro6000-lxc.xml") +
               " --facts " + path),
      "vfio.gpudirect.value[0].clique: 16 is outside 0-15");
}

TEST(VmCompareCli, TheSeedStoryInOneTable) {
  const std::string seed = at("vm/tests/fixtures/seed/");
  const CliResult r = p2pcheck(
      "vm compare " + at("import/tests/fixtures/rtxpro6000-vm-topo.txt") + " " + seed +
      "rtxpro6000-vm-after-cliques.json " + at("import/tests/fixtures/rtxpro6000-lxc-topo.txt") +
      " --p2p-before " + seed + "rtxpro6000-vm-p2p-r-no-cliques.txt --p2p-host " +
      at("import/tests/fixtures/rtxpro6000-lxc-p2p-w.txt"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(
      has(r.out, "GPU0-GPU1   PHB CNS       PHB OK 0/0          NODE OK     regained: clique 0"))
      << r.out;
  EXPECT_TRUE(has(r.out, "P2P pairs: VM before 0, VM after 2, host 2 of 6")) << r.out;
  expect_one_line_error(p2pcheck("vm compare " + seed + "rtxpro6000-vm-after-cliques.json " +
                                 at("topology/tests/golden/h200-vm.json") + " " +
                                 at("topology/tests/golden/rtxpro6000-lxc.json")),
                        "must have as many GPUs");
}

// The guest's NCCL topology file from a libvirt domain's guest addresses: host GPUs 0000:81:00.0
// and 0000:c1:00.0 (socket 1 of the seed host) are 01:00.0 and 02:00.0 in the guest.
TEST(VmPlanCli, TheNcclTopologyFileTakesALibvirtDomainsGuestAddresses) {
  const p2p::TempDir dir("vm-nccl-topo");
  const CliResult r = p2pcheck("vm plan " + kRtx + " --vm-config " +
                               at("vm/tests/fixtures/configs/libvirt-cliques-override.xml") +
                               " --nccl-topo " + dir.file("topo.xml"));
  // 0000:c1:00.0 shares its IOMMU group with a NIC the domain does not pass: a trap, exit 1.
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string xml = p2p::read_text_file(dir.file("topo.xml"));
  EXPECT_NE(
      xml.find("  <cpu numaid=\"1\" arch=\"x86_64\">\n"
               "    <pci busid=\"0000:01:00.0\" class=\"0x030200\"/> <!-- host 0000:81:00.0 -->\n"
               "    <pci busid=\"0000:02:00.0\" class=\"0x030200\"/> <!-- host 0000:c1:00.0 -->\n"),
      std::string::npos)
      << xml;
  EXPECT_TRUE(has(r.out, "NCCL topology for the guest: written to " + dir.file("topo.xml")))
      << r.out;
  EXPECT_TRUE(has(r.out, "libvirt's bus there is a controller index")) << r.out;
  EXPECT_TRUE(has(r.out, "NCCL_P2P_LEVEL=PHB")) << "the two GPUs meet in the CPU (NODE)";
}

// vm verify's document beside the plan: the bad plan's pairs across the host's sockets broke in the
// guest, those within a socket arrived (which the host's path class alone could not say).
TEST(VmCompareCli, TheGuestsProofStandsBesideThePlan) {
  const std::string seed = at("vm/tests/fixtures/seed/");
  const std::string three = "vm compare " + at("import/tests/fixtures/rtxpro6000-vm-topo.txt") +
                            " " + seed + "rtxpro6000-vm-one-clique-bdf.json " +
                            at("import/tests/fixtures/rtxpro6000-lxc-topo.txt");
  const CliResult r =
      p2pcheck(three + " --verify " + seed + "rtxpro6000-vm-one-clique-verify.json --format json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& rows = j.at("pairs");
  EXPECT_EQ(rows.at(0).at("proof"), "proven");
  EXPECT_EQ(rows.at(0).at("verdict"), "regained");
  EXPECT_EQ(rows.at(1).at("proof"), "broken");
  EXPECT_EQ(rows.at(1).at("verdict"), "wrong clique");
  EXPECT_TRUE(j.at("wrong_clique").get<bool>());
  expect_one_line_error(p2pcheck(three + " --verify " + seed + "rtxpro6000-vm-after-cliques.json"),
                        "not a p2pcheck vm verify document");
  // The capture after cliques has no bus ids to match the proof's GPUs to.
  expect_one_line_error(
      p2pcheck("vm compare " + at("import/tests/fixtures/rtxpro6000-vm-topo.txt") + " " + seed +
               "rtxpro6000-vm-after-cliques.json " +
               at("import/tests/fixtures/rtxpro6000-lxc-topo.txt") + " --verify " + seed +
               "rtxpro6000-vm-one-clique-verify.json"),
      "is not in the VM's topology after cliques");
}

TEST(TopoDiffCli, AVmAgainstItsHostSaysWhichPairsCliquesCanGiveBack) {
  const CliResult r = p2pcheck("topo diff " + at("import/tests/fixtures/rtxpro6000-vm-topo.txt") +
                               " " + at("vm/tests/fixtures/seed/rtxpro6000-lxc-topo-p2p.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.out, "P2P back in the VM with GPUDirect cliques")) << r.out;
  EXPECT_TRUE(has(r.out, "2 of 6 pairs can")) << r.out;
  const CliResult j = p2pcheck("topo diff " + at("topology/tests/golden/rtxpro6000-vm.json") + " " +
                               at("topology/tests/golden/rtxpro6000-lxc.json") + " --format json");
  EXPECT_EQ(nlohmann::json::parse(j.out).at("gpudirect_cliques").at("pairs").size(), 28u);
}

// The outputs the README shows (vm/tests/examples/: the command on the first line, then its
// stdout), made again by this build: a change to the plan's text fails here until they are
// regenerated and the README is updated with them.
TEST(VmExamples, TheReadmesOutputsAreWhatThisBuildPrints) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(at("vm/tests/examples"))) {
    const std::string text = p2p::read_text_file(e.path().string());
    const auto newline = text.find('\n');
    const std::string command = text.substr(0, newline);
    ASSERT_EQ(command.rfind("$ build/p2pcheck ", 0), 0u) << e.path();
    const CliResult r = p2p::testing::run_captured("cd " + std::string(P2P_SOURCE_DIR) + " && " +
                                                   P2PCHECK_EXE + " " + command.substr(17));
    EXPECT_EQ(r.out, text.substr(newline + 1)) << e.path();
    ++files;
  }
  EXPECT_GE(files, 5);
}

}  // namespace
