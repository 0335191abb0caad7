// `topo` and `topo diff` from files, on the CPU: the snapshot with what is recorded beside a
// capture, saved only whole, and the diff with the gate's verdict on it.
#include "session/topo_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace {

using p2p::session::run_topo;
using p2p::session::run_topo_diff;
using p2p::session::TopoRequest;

std::string topo_topology_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/" + name;
}
std::string topo_capture_fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name;
}

TEST(TopoRun, TheSnapshotIsSavedAsItIsPrinted) {
  const p2p::TempDir dir("p2p_topo_run");
  TopoRequest r;
  r.input = topo_topology_fixture("rtxpro6000-lxc.xml");
  r.environment = topo_topology_fixture("rtxpro6000-lxc.environment.json");
  r.save = dir.file("snapshot.json");
  const auto t = run_topo(r);
  EXPECT_EQ(t.snapshot.gpus.size(), 8u);
  EXPECT_EQ(p2p::read_text_file(r.save), t.snapshot_json);
  // The environment facts recorded beside the XML replace the XML's "unknown".
  const auto without = run_topo(TopoRequest{r.input, "", "", ""});
  EXPECT_NE(t.snapshot.environment.kind, without.snapshot.environment.kind);
}

TEST(TopoRun, AP2pCaptureIsAddedToTheSnapshot) {
  TopoRequest r;
  r.input = topo_capture_fixture("rtxpro6000-vm-topo.txt");
  EXPECT_TRUE(run_topo(r).snapshot.p2p_status.empty());
  r.p2p = topo_capture_fixture("rtxpro6000-vm-p2p-r.txt");
  EXPECT_FALSE(run_topo(r).snapshot.p2p_status.empty());
}

TEST(TopoRun, ABadInputSavesNothing) {
  const p2p::TempDir dir("p2p_topo_run");
  TopoRequest r;
  r.input = topo_capture_fixture("bad-cut-topo.txt");
  r.save = dir.file("snapshot.json");
  EXPECT_THROW(run_topo(r), p2p::InputError);
  EXPECT_FALSE(std::filesystem::exists(r.save));
}

TEST(TopoRun, TheVmAndTheLxcDifferAndTheGateBlocks) {
  const auto d = run_topo_diff(topo_topology_fixture("rtxpro6000-vm.xml"),
                               topo_topology_fixture("rtxpro6000-lxc.xml"));
  EXPECT_FALSE(d.diff.same());
  EXPECT_EQ(d.diff.changed.size(), 28u);
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_FALSE(d.gate.passed);
  EXPECT_EQ(d.gate.blocking(), 28u);
  EXPECT_EQ(d.gate.expected_source, topo_topology_fixture("rtxpro6000-lxc.xml"));
}

TEST(TopoRun, AnXmlAndItsGoldenSnapshotAreTheSame) {
  const auto d =
      run_topo_diff(topo_topology_fixture("pcie-switch.xml"),
                    std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/pcie-switch.json");
  EXPECT_TRUE(d.diff.same());
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_TRUE(d.gate.passed);
}

}  // namespace
