// VFIO guests and GPUDirect cliques: the fixtures of vfio_stories.py (and vfio-vm.json), the
// facts' vfio section, and the collector reading real config-space images from a sysfs tree.
#include "doctor/vfio_guest.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "doctor/collect/collect.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;
using test::contains;
using test::judge_fixture;
using test::top;

namespace fs = std::filesystem;

TEST(VfioGuest, WithoutCliquesTheVerdictNamesCliquesAndTheHostCommand) {
  const auto j = judge_fixture("vfio-vm.json");
  EXPECT_EQ(j.status("vfio.clique"), Status::kWarn);
  EXPECT_TRUE(contains(j.at("vfio.clique").summary, "no GPU carries the virtual P2P approval"));
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
  EXPECT_EQ(top(j).id, "vm_p2p");
  EXPECT_TRUE(contains(top(j).title, "no GPUDirect clique")) << top(j).title;
  EXPECT_TRUE(contains(top(j).fix, "p2pcheck vm plan --gpus")) << top(j).fix;
  EXPECT_TRUE(contains(top(j).fix, "x-nv-gpudirect-clique")) << top(j).fix;
  EXPECT_FALSE(contains(top(j).fix, "run the workload on the host")) << top(j).fix;
}

TEST(VfioGuest, CliquesWithoutAPeerCopyAreNotHealthy) {
  const auto j = judge_fixture("vfio-cliques-unverified.json");
  const auto& f = j.at("vfio.clique");
  EXPECT_EQ(f.status, Status::kUnknown);
  EXPECT_TRUE(contains(f.summary,
                       "clique 0: 0000:01:00.0, 0000:02:00.0; clique 1: "
                       "0000:03:00.0, 0000:04:00.0"))
      << f.summary;
  EXPECT_TRUE(contains(f.summary, "peer copy required")) << f.summary;
  EXPECT_EQ(j.verdict.state, VerdictState::kInconclusive);
  EXPECT_TRUE(contains(j.verdict.headline, "peer copy required")) << j.verdict.headline;
  EXPECT_EQ(top(j).id, "vm_clique_unverified");
  // The pairs across the two cliques have no P2P by design: not a cause of their own.
  EXPECT_FALSE(j.has_cause("vm_p2p"));
  EXPECT_TRUE(contains(j.at("p2p.status").hint, "different cliques have no P2P"));
}

TEST(VfioGuest, APlantedBadCliqueNamesTheFailingPairsAndTheGpuToTakeOut) {
  const auto j = judge_fixture("vfio-bad-clique.json");
  const auto& f = j.at("vfio.clique");
  EXPECT_EQ(f.status, Status::kFail);
  EXPECT_TRUE(contains(f.summary, "0000:01:00.0 - 0000:04:00.0 (clique 0)")) << f.summary;
  EXPECT_TRUE(contains(f.summary, "on 3 pair(s)")) << f.summary;
  EXPECT_TRUE(contains(f.hint, "take 0000:04:00.0 out of clique 0")) << f.hint;
  EXPECT_EQ(top(j).id, "vm_clique_bad");
  EXPECT_EQ(top(j).gpus, std::vector<std::string>{"0000:04:00.0"});
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
}

TEST(VfioGuest, ABadCliqueOfTwoSaysOneOfThemMustGo) {
  const auto j = judge_fixture("vfio-clique-peer-copy.json");
  EXPECT_EQ(j.status("vfio.clique"), Status::kFail);
  EXPECT_TRUE(
      contains(j.at("vfio.clique").hint, "take one of 0000:06:00.0, 0000:07:00.0 out of clique 0"))
      << j.at("vfio.clique").hint;
  EXPECT_EQ(top(j).id, "vm_clique_bad");
  EXPECT_TRUE(j.has_cause("p2p_data_lost"));
}

TEST(VfioGuest, CliquesTheDriverRefusesNameTheHiddenKvmTrap) {
  const auto j = judge_fixture("vfio-clique-kvm-hidden.json");
  const auto& f = j.at("vfio.clique");
  EXPECT_EQ(f.status, Status::kWarn);
  EXPECT_TRUE(contains(f.summary, "still refuses P2P")) << f.summary;
  EXPECT_TRUE(contains(f.summary, "CHIPSET_NOT_SUPPORTED")) << f.summary;
  ASSERT_FALSE(f.evidence.empty());
  EXPECT_TRUE(contains(f.evidence.front(), "hidden=1")) << f.evidence.front();
  EXPECT_EQ(top(j).id, "vm_clique_refused");
  EXPECT_EQ(j.verdict.state, VerdictState::kDegraded);
}

TEST(VfioGuest, ACliqueOnOneGpuOnlyPointsAtTheMissingFunction) {
  const auto j = judge_fixture("vfio-clique-missing-on-one.json");
  const auto& f = j.at("vfio.clique");
  EXPECT_EQ(f.status, Status::kWarn);
  EXPECT_TRUE(contains(f.summary, "but not on 0000:01:00.0")) << f.summary;
  EXPECT_TRUE(contains(f.hint, "hostpciN.0")) << f.hint;
  EXPECT_EQ(top(j).id, "vm_p2p");
  EXPECT_EQ(top(j).title, "VFIO guest: a GPUDirect clique on some GPUs only");
}

TEST(VfioGuest, TheRealH200WithOneGpuNeedsNoCliqueAndStaysHealthy) {
  const auto j = judge_fixture("h200-vm-real.json");
  EXPECT_EQ(j.status("vfio.clique"), Status::kSkip);
  EXPECT_TRUE(contains(j.at("vfio.clique").summary, "one GPU")) << j.at("vfio.clique").summary;
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy) << j.verdict.headline;
}

TEST(VfioGuest, BareMetalHasNothingToSay) {
  const auto j = judge_fixture("bare-metal-healthy.json");
  EXPECT_EQ(j.status("vfio.clique"), Status::kSkip);
  EXPECT_EQ(j.verdict.state, VerdictState::kHealthy);
}

TEST(VfioFactsJson, ACliqueIdOver15IsBadInputNamingTheKey) {
  auto doc = p2p::read_json_file(test::fixture("vfio-cliques-unverified.json"));
  doc["vfio"]["gpudirect"]["value"][2]["clique"] = 16;
  try {
    facts_from_json(doc);
    FAIL() << "clique 16 was accepted";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "vfio.gpudirect.value[2].clique: 16 is outside 0-15 (a clique ID has four bits)");
  }
  doc = p2p::read_json_file(test::fixture("vfio-cliques-unverified.json"));
  doc["vfio"]["gpudirect"]["value"][0]["state"] = "maybe";
  EXPECT_THROW(facts_from_json(doc), p2p::InputError);
}

TEST(VfioFactsJson, RoundTripsAndIsLeftOutWhereNotLooked) {
  const auto doc = p2p::read_json_file(test::fixture("vfio-bad-clique.json"));
  EXPECT_EQ(facts_to_json(facts_from_json(doc)).at("vfio"), doc.at("vfio"));
  Facts nothing;
  EXPECT_FALSE(facts_to_json(nothing).contains("vfio"));
}

// A guest's sysfs: each GPU's config file is one of the images QEMU writes (topology fixtures).
void plant(const std::string& root, const std::string& bdf, const std::string& image) {
  const std::string dir = root + "/sys/bus/pci/devices/" + bdf;
  fs::create_directories(dir);
  fs::copy_file(std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/config-space/" + image,
                dir + "/config");
}

PciFunction gpu(const std::string& bdf) {
  PciFunction p;
  p.bdf = bdf;
  p.vendor_id = 0x10de;
  p.class_code = 0x030200;
  return p;
}

TEST(CollectVfio, ReadsEachGpusCliqueFromItsConfigSpace) {
  const p2p::TempDir root("vfio-root");
  plant(root.path(), "0000:01:00.0", "h20-clique0.config");
  plant(root.path(), "0000:02:00.0", "a100-clique3.config");
  plant(root.path(), "0000:03:00.0", "h20-no-clique.config");
  plant(root.path(), "0000:04:00.0", "h20-clique0-unprivileged.config");
  const auto pci = Observed<std::vector<PciFunction>>::of({gpu("0000:01:00.0"), gpu("0000:02:00.0"),
                                                           gpu("0000:03:00.0"), gpu("0000:04:00.0"),
                                                           gpu("0000:05:00.0")});
  const VfioFacts v = collect_vfio(root.path(), pci);
  ASSERT_TRUE(v.gpudirect.present());
  ASSERT_EQ(v.gpudirect.value.size(), 5u);
  EXPECT_EQ(v.gpudirect.value[0].capability.clique, 0);
  EXPECT_EQ(v.gpudirect.value[1].capability.clique, 3);
  EXPECT_EQ(v.gpudirect.value[1].capability.offset, 0xd4);
  EXPECT_EQ(v.gpudirect.value[2].capability.state, p2p::topo::GpudirectState::kAbsent);
  EXPECT_EQ(v.gpudirect.value[3].capability.state, p2p::topo::GpudirectState::kUnreadable);
  EXPECT_EQ(v.gpudirect.value[4].capability.state,
            p2p::topo::GpudirectState::kUnreadable);  // no config file at all
  EXPECT_FALSE(v.iommu_groups.value.at(0).group);     // no iommu_group link
  EXPECT_FALSE(collect_vfio(root.path(), {}).checked());
}

TEST(CollectVfio, ReadsTheIommuGroupAndItsMembers) {
  const p2p::TempDir root("vfio-root");
  const std::string devices = root.path() + "/sys/bus/pci/devices";
  const std::string group = root.path() + "/sys/kernel/iommu_groups/27/devices";
  fs::create_directories(group);
  for (const auto& [bdf, cls] : {std::pair<std::string, std::string>{"0000:41:00.0", "0x030200"},
                                 {"0000:41:00.1", "0x040300"},
                                 {"0000:42:00.0", "0x020000"}}) {
    fs::create_directories(devices + "/" + bdf);
    std::ofstream(devices + "/" + bdf + "/class") << cls << "\n";
    fs::create_directory_symlink(devices + "/" + bdf, group + "/" + bdf);
  }
  fs::create_directory_symlink("../../../kernel/iommu_groups/27",
                               devices + "/0000:41:00.0/iommu_group");
  const VfioFacts v =
      collect_vfio(root.path(), Observed<std::vector<PciFunction>>::of({gpu("0000:41:00.0")}));
  ASSERT_EQ(v.iommu_groups.value.size(), 1u);
  EXPECT_EQ(v.iommu_groups.value[0].group, 27);
  ASSERT_EQ(v.iommu_groups.value[0].members.size(), 3u);
  EXPECT_EQ(v.iommu_groups.value[0].members[2].bdf, "0000:42:00.0");
  EXPECT_EQ(v.iommu_groups.value[0].members[2].class_code, 0x020000);
}

}  // namespace
