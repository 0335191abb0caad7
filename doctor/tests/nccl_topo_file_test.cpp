// nccl.topo_file: the guest's NCCL_TOPO_FILE set, read, and naming every GPU here; the file's
// GPUs as NCCL's reader finds them; the facts' JSON.
#include "doctor/nccl_topo_file.hpp"

#include <gtest/gtest.h>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {
namespace {

// The shape of the published Azure NDv4 file: bridges in domain ffff, GPU leaves by guest bus id.
const char* const kTopology =
    "<system version=\"1\">\n"
    "  <cpu numaid=\"0\" affinity=\"0000ffff\" arch=\"x86_64\" vendor=\"AuthenticAMD\">\n"
    "    <pci busid=\"ffff:ff:01.0\" class=\"0x060400\" link_speed=\"16.0 GT/s PCIe\">\n"
    "      <pci busid=\"0001:00:00.0\" class=\"0x030200\" link_speed=\"16.0 GT/s PCIe\"/>\n"
    "      <pci busid=\"0101:00:00.0\" class=\"0x020700\"/>\n"
    "    </pci>\n"
    "    <pci busid=\"0002:00:00.0\" class=\"0x030200\"/> <!-- host 0000:41:00.0 -->\n"
    "  </cpu>\n"
    "</system>\n";

Facts guest() {
  Facts f = load_facts_file(std::string(P2P_SOURCE_DIR) +
                            "/doctor/tests/fixtures/vfio-bad-clique.json");  // four GPUs, KVM
  return f;
}

Finding judged(const Facts& f) {
  std::vector<Finding> out;
  rules::nccl_topo_file(f, out);
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? Finding{} : out[0];
}

TEST(NcclTopoFile, TheGpusAreThePciElementsOfADisplayClass) {
  EXPECT_EQ(nccl_topo_file_gpus(kTopology),
            (std::vector<std::string>{"0001:00:00.0", "0002:00:00.0"}));
  EXPECT_TRUE(nccl_topo_file_gpus("<system version=\"1\"></system>").empty());
  EXPECT_TRUE(nccl_topo_file_gpus("<pci busid=\"0000:01:00.0\" class=\"0x030").empty());
}

TEST(NcclTopoFile, NcclConfTheLastSettingWins) {
  EXPECT_EQ(nccl_conf_topo_file("NCCL_DEBUG=WARN\n# NCCL_TOPO_FILE=/old.xml\n"
                                "NCCL_TOPO_FILE = /etc/nccl/topo.xml\n"),
            "/etc/nccl/topo.xml");
  EXPECT_EQ(nccl_conf_topo_file("NCCL_P2P_LEVEL=PHB\n"), "");
}

TEST(NcclTopoFile, AVmWithoutItWarnsAndNamesTheCommand) {
  const Finding f = judged(guest());
  EXPECT_EQ(f.status, Status::kWarn);
  EXPECT_NE(f.summary.find("emulated PCIe tree"), std::string::npos) << f.summary;
  EXPECT_NE(f.hint.find("vm plan --nccl-topo"), std::string::npos) << f.hint;
}

TEST(NcclTopoFile, AFileNamingEveryGpuPassesOneMissingAGpuOrUnreadableWarns) {
  Facts f = guest();
  f.nccl_topo_file.path = "/etc/nccl/topo.xml";
  f.nccl_topo_file.set_by = "/etc/nccl.conf";
  f.nccl_topo_file.gpus = Observed<std::vector<std::string>>::of(
      {"0000:01:00.0", "0000:02:00.0", "0000:03:00.0", "0000:04:00.0", "0000:7f:00.0"});
  Finding j = judged(f);
  EXPECT_EQ(j.status, Status::kPass) << j.summary;
  EXPECT_NE(j.evidence.back().find("not here (NCCL drops them): 0000:7f:00.0"), std::string::npos);
  f.nccl_topo_file.gpus.value.erase(f.nccl_topo_file.gpus.value.begin() + 1);
  j = judged(f);
  EXPECT_EQ(j.status, Status::kWarn);
  EXPECT_NE(j.summary.find("does not name 1 of the 4 GPUs here (0000:02:00.0)"), std::string::npos)
      << j.summary;
  f.nccl_topo_file.gpus = Observed<std::vector<std::string>>::missing();
  j = judged(f);
  EXPECT_EQ(j.status, Status::kWarn);
  EXPECT_NE(j.summary.find("cannot be read"), std::string::npos) << j.summary;
}

TEST(NcclTopoFile, FactsKeepItThroughJson) {
  Facts f = guest();
  f.nccl_topo_file.path = "/etc/nccl/topo.xml";
  f.nccl_topo_file.set_by = "environment";
  f.nccl_topo_file.gpus = Observed<std::vector<std::string>>::of({"0000:01:00.0"});
  const Facts back = facts_from_json(facts_to_json(f));
  EXPECT_EQ(back.nccl_topo_file.path, "/etc/nccl/topo.xml");
  EXPECT_EQ(back.nccl_topo_file.gpus.value, std::vector<std::string>{"0000:01:00.0"});
  EXPECT_FALSE(facts_to_json(guest()).contains("nccl_topo_file")) << "written only where set";
}

}  // namespace
}  // namespace p2p::doctor
