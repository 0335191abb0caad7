// The built p2pcheck on what users already hold: nvidia-smi captures, NCCL logs, peer tools'
// outputs. Exit codes, what is printed, one-line errors, nothing written on bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "common/testing/windows_file.hpp"

namespace {

namespace fs = std::filesystem;
using p2p::testing::run_captured;

std::string fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name;
}
std::string nccl_log(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/nccl/tests/fixtures/" + name;
}
std::string results(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/" + name;
}
std::string p2pcheck(const std::string& args) { return std::string(P2PCHECK_EXE) + " " + args; }

class ImportCli : public ::testing::Test {
 protected:
  p2p::TempDir tmp_{"p2p_import_cli"};
  fs::path dir_{tmp_.path()};
};

TEST_F(ImportCli, TopoDiffOfTwoPastedCapturesGivesPairsAndTheGateVerdict) {
  const auto r = run_captured(p2pcheck("topo diff " + fixture("rtxpro6000-vm-topo.txt") + " " +
                                       fixture("rtxpro6000-lxc-topo.txt")));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("carries no PCI bus ids"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6 of 6 pairs changed class"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU0-GPU2     PHB -> SYS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gate: BLOCKED (6 blocking reasons)"), std::string::npos) << r.out;
}

TEST_F(ImportCli, TopoReadsTheRealH200CaptureAsASnapshotWithNulls) {
  const auto r =
      run_captured(p2pcheck("topo --input " + fixture("h200-topo-m.txt") + " --format json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("source"), "nvidia-smi");
  EXPECT_TRUE(j.at("gpus").at(0).at("pci_bus_id").is_null());
  EXPECT_EQ(j.at("gpus").at(0).at("cpuset"), "0-15");
}

TEST_F(ImportCli, GateAnswersRequireP2pFromATopoP2pCapture) {
  const auto r = run_captured(p2pcheck("gate --input " + fixture("rtxpro6000-vm-topo.txt") +
                                       " --p2p " + fixture("rtxpro6000-vm-p2p-r.txt") +
                                       " --policy " + fixture("policy-require-p2p.json")));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("every pair is OK in the nvidia-smi topo -p2p capture"), std::string::npos)
      << r.out;
  const auto blocked =
      run_captured(p2pcheck("gate --input " + fixture("rtx5090-workstation-topo-and-p2p.txt") +
                            " --policy " + fixture("policy-require-p2p.json")));
  EXPECT_EQ(blocked.exit_code, 1) << blocked.err;
  EXPECT_NE(blocked.out.find("GNS (GPU not supported)"), std::string::npos) << blocked.out;
}

TEST_F(ImportCli, BadCapturesAreOneLineAndExit2) {
  const auto cut = run_captured(p2pcheck("topo --input " + fixture("bad-cut-topo.txt")));
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_EQ(cut.out, "");
  EXPECT_EQ(
      cut.err,
      "p2pcheck: error: " + fixture("bad-cut-topo.txt") +
          ": not an nvidia-smi topo -m capture: the header names 4 GPUs but 2 GPU rows follow (cut "
          "short?)\n");
  const auto p2p_only = run_captured(p2pcheck("topo --input " + fixture("h200-topo-p2p-r.txt")));
  EXPECT_EQ(p2p_only.exit_code, 2);
  EXPECT_NE(p2p_only.err.find("holds P2P status only"), std::string::npos) << p2p_only.err;
  const auto other = run_captured(p2pcheck("topo --input " + fixture("nvbandwidth-v0.4-2gpu.txt")));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(
      other.err.find(
          "neither an hwloc XML topology, a p2pcheck snapshot (JSON) nor an nvidia-smi topo -m capture"),
      std::string::npos)
      << other.err;
}

TEST_F(ImportCli, NcclTransportsReadsLogsWithoutAGpu) {
  const auto real =
      run_captured(p2pcheck("nccl transports " + nccl_log("h200_vm_single_rank.log")));
  EXPECT_EQ(real.exit_code, 0) << real.err;
  EXPECT_NE(real.out.find("NCCL 2.28.3+cuda13.0, 1 rank"), std::string::npos) << real.out;
  const auto multi = run_captured(p2pcheck(
      "nccl transports --format json " + nccl_log("rank_process_1gpu_rank0.log") + " " +
      nccl_log("rank_process_1gpu_rank1.log") + " " + nccl_log("rank_process_1gpu_rank2.log")));
  ASSERT_EQ(multi.exit_code, 0) << multi.err;
  const auto j = nlohmann::json::parse(multi.out);
  EXPECT_EQ(j.at("nranks"), 3);
  EXPECT_EQ(j.at("files").size(), 3u);
  const auto partly =
      run_captured(p2pcheck("nccl transports " + nccl_log("partly_readable_cut.log")));
  EXPECT_EQ(partly.exit_code, 0);
  EXPECT_NE(partly.out.find("2 lines could not be read"), std::string::npos) << partly.out;
  const auto bad =
      run_captured(p2pcheck("nccl transports " + fixture("nvbandwidth-v0.4-2gpu.txt")));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(": not an NCCL INFO log:"), std::string::npos) << bad.err;
}

TEST_F(ImportCli, ImportedH200RunsCompareWithP2pchecksOwnAndReport) {
  const std::string doc = (dir_ / "peers.json").string();
  const auto imp =
      run_captured(p2pcheck("import " + fixture("nvbandwidth-v0.8-h200.txt") + " " +
                            fixture("nccl-tests-2.19.6-h200-all_reduce.txt") + " --json " + doc));
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  EXPECT_NE(imp.out.find("host_to_device_memcpy_ce -> h2d_ce"), std::string::npos) << imp.out;
  EXPECT_TRUE(fs::exists(doc));

  const auto bench = run_captured(
      p2pcheck("compare " + doc + " " + results("h200-bench.json") + " --format json"));
  EXPECT_LE(bench.exit_code, 1) << bench.err;
  const auto j = nlohmann::json::parse(bench.out);
  EXPECT_NE(j.at("baseline_imported_from").get<std::string>().find("nvbandwidth v0.8"),
            std::string::npos);
  bool matched = false;
  for (const auto& f : j.at("figures"))
    matched |= f.at("figure") == "h2d_ce host->gpu0 512MiB" && !f.at("baseline").is_null() &&
               !f.at("run").is_null();
  EXPECT_TRUE(matched);

  const auto text = run_captured(p2pcheck("compare " + doc + " " + results("h200-nccl.json")));
  EXPECT_LE(text.exit_code, 1) << text.err;
  EXPECT_NE(text.out.find("the baseline was imported from nvbandwidth v0.8"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("nccl-tests all_reduce_perf -> nccl all_reduce"), std::string::npos)
      << text.out;

  const auto html =
      run_captured(p2pcheck("report " + doc + " --html " + (dir_ / "peers.html").string()));
  EXPECT_EQ(html.exit_code, 0) << html.err;
}

TEST_F(ImportCli, BadPeerOutputIsOneLineAndWritesNothing) {
  const std::string doc = (dir_ / "peers.json").string();
  const auto r = run_captured(p2pcheck("import " + fixture("nvbandwidth-v0.8-h200.txt") + " " +
                                       fixture("bad-nccl-tests-mangled.txt") + " --json " + doc));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("p2pcheck: error: " + fixture("bad-nccl-tests-mangled.txt") +
                            ": not nccl-tests output: line 13",
                        0),
            0u)
      << r.err;
  EXPECT_FALSE(fs::exists(doc));
  // A paste with no table at all: one line naming the file and what was looked for.
  const std::string banner = (dir_ / "banner-only.txt").string();
  p2p::write_text_file_atomically(
      banner,
      "$ ./nvbandwidth -t device_to_device_memcpy_write_ce\nnvbandwidth Version: v0.8\n\n"
      "NOTE: This tool reports current measured bandwidth on your system.\n");
  const auto other = run_captured(p2pcheck("import " + banner + " --json " + doc));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.out, "");
  EXPECT_EQ(other.err.rfind("p2pcheck: error: " + banner +
                                ": no table found (nvbandwidth output starts, but no result table "
                                "follows: cut before it, or the test printed none): looked for an "
                                "nccl-tests table",
                            0),
            0u)
      << other.err;
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 1);
  EXPECT_FALSE(fs::exists(doc));
  // nvbandwidth waiving its device-to-device test is no missing table: it waives it when no GPU
  // pair has peer access, and that is the verdict.
  const std::string waived = fixture("pastes/none-nvbandwidth-13-v0.2-2080ti-waived-only.txt");
  ASSERT_EQ(run_captured(p2pcheck("import " + waived + " --json " + doc)).exit_code, 0);
  const auto judged = run_captured(p2pcheck("judge " + doc));
  EXPECT_EQ(judged.exit_code, 1) << judged.out;
  EXPECT_NE(judged.out.find("P2P not in effect: no GPU pair has peer access"), std::string::npos)
      << judged.out;
}

TEST_F(ImportCli, RealPublishedCapturesImportAndGateWithoutAGpu) {
  // Published outputs of three tools into one document: every figure lands, nothing is refused.
  const std::string doc = (dir_ / "real.json").string();
  const auto r = run_captured(
      p2pcheck("import " + fixture("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt") + " " +
               fixture("nvbandwidth-v0.7-mpi-multinode-8x-gb200.txt") + " " +
               fixture("nccl-tests-16-ranks-2-hosts-h100-all_reduce.txt") + " --json " + doc));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("p2pBandwidthLatencyTest (text), 88 figures"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nvbandwidth v0.7 (text), 56 figures"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nccl-tests (text), 62 figures"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(p2p::read_text_file(doc));
  EXPECT_EQ(j.at("imported").size(), 3u);

  // A real two-GPU paste whose P2P matrix says GNS blocks a gate that requires P2P.
  const auto gate =
      run_captured(p2pcheck("gate --input " + fixture("topo-2x-rtx5090-phb-and-p2p-rw-gns.txt") +
                            " --policy " + fixture("policy-require-p2p.json")));
  EXPECT_EQ(gate.exit_code, 1) << gate.err;
  EXPECT_NE(gate.out.find("GNS (GPU not supported)"), std::string::npos) << gate.out;
}

}  // namespace

namespace {

// The readers' fixes seen from the command line: peer access on import, hosts of a log without
// init lines, and a Windows-saved `topo -p2p rw` paste read with its combined capability.
TEST_F(ImportCli, PeerAccessHostsFromPrefixesAndAWindowsSavedPaste) {
  const std::string doc = (dir_ / "a100.json").string();
  const auto imp = run_captured(p2pcheck(
      "import " + fixture("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt") + " --json " + doc));
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  const auto j = nlohmann::json::parse(p2p::read_text_file(doc));
  EXPECT_EQ(j.at("p2p_access").at(0), (nlohmann::json{false, true, false, false}));
  const auto smi = run_captured(p2pcheck("import " + fixture("rtxpro6000-lxc-p2p-w.txt")));
  ASSERT_EQ(smi.exit_code, 0) << smi.err;
  EXPECT_NE(smi.out.find("nvidia-smi (text), 0 figures"), std::string::npos) << smi.out;

  const auto log = run_captured(
      p2pcheck("nccl transports " + nccl_log("real_nccl429_busid_tags_ib_gdrdma.log")));
  ASSERT_EQ(log.exit_code, 0) << log.err;
  EXPECT_NE(log.out.find("machine-2"), std::string::npos) << log.out;

  const std::string pasted = (dir_ / "pasted.txt").string();
  p2p::write_text_file_atomically(pasted, p2p::testing::as_windows_file(p2p::read_text_file(
                                              fixture("topo-2x-rtx5090-phb-and-p2p-rw-gns.txt"))));
  const auto topo = run_captured(p2pcheck("topo --input " + pasted + " --format json"));
  ASSERT_EQ(topo.exit_code, 0) << topo.err;
  EXPECT_EQ(nlohmann::json::parse(topo.out).at("p2p_status").at(0).at("capability"), "read+write");
}

}  // namespace

namespace {

// A paste from an issue thread: what was removed around it and what had to be assumed, one line
// each, the sections of a paste with two runs numbered by their lines, and the document written.
TEST_F(ImportCli, APasteIsReadAsItComesAndSaysWhatItRemovedAndAssumed) {
  const std::string doc = (dir_ / "paste.json").string();
  const std::string quoted = fixture("pastes/nvbandwidth-24-h100-sm-quoted-no-banner.txt");
  const std::string runs = fixture("pastes/nvbandwidth-42-a100-two-fenced-runs.txt");
  const auto r = run_captured(p2pcheck("import " + quoted + " " + runs + " --json " + doc));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(quoted + ": removed quote markers (`> `) on 2 lines\n"), std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("  assumed: nvbandwidth version unknown (no \"nvbandwidth Version:\" line)\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  assumed: 8 GPUs, names unknown: the device list was left out\n"),
            std::string::npos);
  EXPECT_NE(r.out.find(runs + ", lines 34-51: nvbandwidth v0.8 (text), 1 figures\n"),
            std::string::npos)
      << r.out;
  const auto j = nlohmann::json::parse(p2p::read_text_file(doc));
  EXPECT_EQ(j.at("imported").size(), 3u);
}

}  // namespace
