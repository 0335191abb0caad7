// Every reader's memory and work linear in its input, measured with counters, not wall time: each
// reader runs on an input and on one about twice as large, and the bytes it held at once and the
// allocations it made per byte of input must not grow. Then the ceilings of the README: the
// 1,024-rank nccl-tests output in under 50 MB, the 4095-rank NCCL log line in kilobytes.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cluster/host_lines.hpp"
#include "cluster/merge.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/allocation_counter.hpp"
#include "document/bench_document.hpp"
#include "document/cluster_document.hpp"
#include "import/testing/round_trip.hpp"
#include "nccl/transport_summary.hpp"

namespace p2p {
namespace {

using testing::AllocationCounts;

struct Measured {
  std::size_t input_bytes = 0;
  AllocationCounts counts;
};

Measured measure(const std::string& input, const std::function<void(const std::string&)>& read) {
  read(input);  // once unmeasured: lazily built tables are not the input's
  Measured m;
  m.input_bytes = input.size();
  testing::CountAllocations counter;
  read(input);
  m.counts = counter.counts();
  return m;
}

// The larger input may cost at most 30% more per byte than the smaller one (a square costs 100%).
void expect_linear(const std::string& reader, const Measured& small, const Measured& big) {
  ASSERT_GE(big.input_bytes, small.input_bytes * 19 / 10) << reader;
  const auto per_byte = [](std::size_t v, const Measured& m) {
    return static_cast<double>(v) / static_cast<double>(m.input_bytes);
  };
  EXPECT_LE(per_byte(big.counts.peak_bytes, big), 1.3 * per_byte(small.counts.peak_bytes, small))
      << reader << ": " << small.counts.peak_bytes << " bytes held for " << small.input_bytes
      << " bytes of input, " << big.counts.peak_bytes << " for " << big.input_bytes;
  EXPECT_LE(per_byte(big.counts.allocations, big), 1.3 * per_byte(small.counts.allocations, small))
      << reader << ": " << small.counts.allocations << " allocations for " << small.input_bytes
      << " bytes, " << big.counts.allocations << " for " << big.input_bytes;
}

void expect_linear(const std::string& reader, const std::function<std::string(int)>& input,
                   int scale, const std::function<void(const std::string&)>& read) {
  expect_linear(reader, measure(input(scale), read), measure(input(2 * scale), read));
}

std::string nccl_tests(int ranks, int rows) {
  std::string out =
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8G step: 2(factor) warmup iters: 5 "
      "iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n";
  char line[256];
  for (int r = 0; r < ranks; ++r) {
    std::snprintf(line, sizeof line,
                  "#  Rank %4d Group  0 Pid %6d on node%04d device  %d [0000:%02x:00] NVIDIA H100 "
                  "80GB HBM3\n",
                  r, 6000 + r, r / 8, r % 8, (r % 8) * 16 + 4);
    out += line;
  }
  out +=
      "#\n#       size         count      type   redop    root     time   algbw   busbw #wrong "
      "    time   algbw   busbw #wrong\n#        (B)    (elements)                               "
      "(us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n";
  for (int k = 0; k < rows; ++k) {
    std::snprintf(line, sizeof line,
                  "  %10d  %12d     float     sum      -1    135.8    1.00    1.90      0    "
                  "123.5    1.10    2.00      0\n",
                  8 * (k + 1), 2 * (k + 1));
    out += line;
  }
  return out + "# Avg bus bandwidth    : 1.9\n";
}

// What `p2pcheck import FILE --json OUT` does with it, written document included.
void import_it(const std::string& text) { (void)testing::import_write_read_back(text, "in.txt"); }

TEST(ReaderScaling, NcclTestsRowsAndRanks) {
  expect_linear(
      "nccl-tests rows", [](int n) { return nccl_tests(8, n); }, 400, import_it);
  expect_linear(
      "nccl-tests ranks", [](int n) { return nccl_tests(n, 20); }, 512, import_it);
}

// The done-when figure: a real-sized 1,024-rank output (97 KB) took 0.8 GB and wrote 94 MB.
TEST(ReaderScaling, AThousandRanksOfNcclTestsTakeUnder50Megabytes) {
  const std::string input = nccl_tests(1024, 30);
  testing::CountAllocations counter;
  const std::size_t written = testing::import_write_read_back(input, "1024-ranks.txt");
  EXPECT_LT(counter.counts().peak_bytes, std::size_t{50} << 20);
  EXPECT_LT(written, std::size_t{2} << 20) << "the document";
}

std::string nccl_log(int lines) {
  std::string out;
  char line[160];
  for (int k = 0; k < lines; ++k) {
    const int src = k % 512, dst = (k / 512 + src + 1) % 512;
    std::snprintf(
        line, sizeof line,
        "node%d:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC/read\n", src / 8,
        9000 + src, 9100 + src, src % 8, k % 32, src, src % 8, dst, dst % 8);
    out += line;
  }
  return out;
}

void summarize(const std::string& text) {
  const nccl::TransportSummary s = nccl::summarize_transports({{"log.txt", text}});
  (void)nccl::format_transport_summary(s);
  (void)nlohmann::json(s).dump();
}

TEST(ReaderScaling, NcclLogs) { expect_linear("NCCL log lines", nccl_log, 4000, summarize); }

// The done-when figure: one 80-byte line naming rank 4095 made 531 MB of text.
TEST(ReaderScaling, ALogLineNamingRank4095IsReadInKilobytes) {
  const std::string line =
      "node7:9100:9150 [0] NCCL INFO Channel 00/0 : 4095[0] -> 0[1] via P2P/CUMEM/read\n";
  testing::CountAllocations counter;
  const nccl::TransportSummary s = nccl::summarize_transports({{"one-line.log", line}});
  const std::string text = nccl::format_transport_summary(s);
  const std::string json = nlohmann::json(s).dump();
  EXPECT_LT(counter.counts().peak_bytes, std::size_t{256} << 10);
  EXPECT_LT(text.size(), 4096u) << text;
  EXPECT_LT(json.size(), 4096u) << json;
  EXPECT_NE(text.find("4096 ranks, more than 64 for a matrix"), std::string::npos) << text;
}

std::string square_matrix(int n, const char* cell) {
  std::string out = "     D\\D";
  for (int c = 0; c < n; ++c) out += "      " + std::to_string(c);
  out += "\n";
  for (int r = 0; r < n; ++r) {
    out += "     " + std::to_string(r);
    for (int c = 0; c < n; ++c) out += std::string(" ") + cell;
    out += "\n";
  }
  return out;
}

// A p2pBandwidthLatencyTest output of n GPUs: its input is n x n cells, so is what it holds.
std::string p2p_bandwidth_latency(int n) {
  std::string out = "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n";
  for (int d = 0; d < n; ++d)
    out += "Device: " + std::to_string(d) + ", NVIDIA H100, pciBusID: " + std::to_string(d + 1) +
           ", pciDeviceID: 0, pciDomainID:0\n";
  out += "P2P Connectivity Matrix\n" + square_matrix(n, "    1");
  out += "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)\n" + square_matrix(n, "41.37");
  out += "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n" +
         square_matrix(n, "54.81");
  return out;
}

// nvbandwidth of n GPUs: one device-to-device matrix.
std::string nvbandwidth(int n) {
  std::string out = "nvbandwidth Version: v0.8\n\n";
  for (int d = 0; d < n; ++d)
    out += "Device " + std::to_string(d) + ": NVIDIA H100 (00000000:" + std::to_string(10 + d) +
           ":00)\n";
  out +=
      "\nRunning device_to_device_memcpy_write_ce.\nmemcpy CE GPU(row) -> GPU(column) "
      "bandwidth (GB/s)\n";
  for (int c = 0; c < n; ++c) out += "          " + std::to_string(c);
  out += "\n";
  for (int r = 0; r < n; ++r) {
    out += " " + std::to_string(r);
    for (int c = 0; c < n; ++c) out += r == c ? "       N/A" : "     55.90";
    out += "\n";
  }
  return out + "\n";
}

TEST(ReaderScaling, PeerToolMatrices) {
  // 12 GPUs, then 18: the matrices 2.25 times as large, the whole input about twice.
  const auto grow = [](const std::function<std::string(int)>& f) {
    return [f](int n) { return f(n == 24 ? 18 : n); };
  };
  expect_linear("p2pBandwidthLatencyTest", grow(p2p_bandwidth_latency), 12, import_it);
  expect_linear("nvbandwidth", grow(nvbandwidth), 12, import_it);
}

std::string topo_capture(int n) {
  std::string out = "\t";
  for (int c = 0; c < n; ++c) out += "GPU" + std::to_string(c) + "\t";
  out += "CPU Affinity\tNUMA Affinity\n";
  for (int r = 0; r < n; ++r) {
    out += "GPU" + std::to_string(r);
    for (int c = 0; c < n; ++c) out += r == c ? "\t X " : (r / 8 == c / 8 ? "\tNV18" : "\tSYS");
    out += "\t0-15\t0\n";
  }
  return out;
}

TEST(ReaderScaling, TopologyCapturesAndSnapshots) {
  const auto grow = [](int n) { return topo_capture(n == 32 ? 45 : n); };
  expect_linear("nvidia-smi topo -m", grow, 16, [](const std::string& text) {
    testing::topology_write_read_back(text, "topo.txt");
  });
}

// A results document with n copies of each figure of a kept run (sizes made distinct).
std::string results_document(int copies) {
  nlohmann::json doc =
      read_json_file(std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json");
  const nlohmann::json one = doc.at("bandwidth");
  doc["bandwidth"] = nlohmann::json::array();
  for (int k = 0; k < copies; ++k) {
    for (nlohmann::json f : one) {
      f["bytes"] = f["bytes"].get<std::uint64_t>() + 4 * static_cast<std::uint64_t>(k);
      doc["bandwidth"].push_back(f);
    }
  }
  return doc.dump();
}

TEST(ReaderScaling, ResultsDocuments) {
  expect_linear("results document", results_document, 4, [](const std::string& text) {
    (void)doc::bench_document_from_json(parse_json_text(text, "run.json"), "run.json");
  });
}

// A fleet of n hosts, each the lines of one kept node under its own name.
std::vector<std::string> fleet(int hosts) {
  const std::string lines =
      read_text_file(std::string(P2P_SOURCE_DIR) + "/cluster/tests/fixtures/lines/node-a.jsonl");
  std::vector<std::string> out;
  for (int h = 0; h < hosts; ++h) {
    std::string text = lines;
    const std::string name = "node-a" + std::to_string(h);
    for (auto at = text.find("\"node-a\""); at != std::string::npos;
         at = text.find("\"node-a\"", at + name.size()))
      text.replace(at + 1, 6, name);
    out.push_back(text);
  }
  return out;
}

TEST(ReaderScaling, FleetsOfHosts) {
  const auto joined = [](int hosts) {
    std::string all;
    for (const auto& t : fleet(hosts)) all += t + '\x1e';  // one file per host
    return all;
  };
  expect_linear("merge", joined, 16, [](const std::string& all) {
    std::vector<cluster::HostRun> hosts;
    std::size_t start = 0;
    for (auto end = all.find('\x1e'); end != std::string::npos; end = all.find('\x1e', start)) {
      hosts.push_back(cluster::read_host_lines(all.substr(start, end - start), "host.jsonl"));
      start = end + 1;
    }
    const cluster::MergeOptions options;
    doc::ClusterDocument d;
    d.run = cluster::merge_hosts(hosts, options);
    d.outlier_rule = options.outliers;
    (void)nlohmann::json(d).dump();
  });
}

// The InputError `read` throws, or "" when it throws none.
std::string refusal(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_refused(const std::string& what, const std::string& file, const std::string& says) {
  EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
  EXPECT_NE(what.find(says), std::string::npos) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

// Past each ceiling, one line naming the file (exit 2 at the command line), never a square.
TEST(Ceilings, PastEachCeilingIsOneLineNamingTheFile) {
  // 100,001 rows of both placements: 200,002 figures.
  expect_refused(refusal([] { import_it(nccl_tests(8, 100'001)); }), "in.txt",
                 "more than 200000 figures, beyond what one import reads");
  // A file of nothing but line breaks would take 32 times its size as lines: refused first.
  expect_refused(refusal([] { import_it(std::string(4'000'001, '\n')); }), "in.txt",
                 "more than 4000000 lines, beyond what one import reads");
  expect_refused(
      refusal([] { (void)topo::load_topology_text(topo_capture(1025), "big-topo.txt"); }),
      "big-topo.txt", "1025 GPUs: more than the 1024 a topology p2pcheck reads holds");
  expect_refused(
      refusal([] {
        (void)nccl::summarize_transports({{"a.log", nccl_log(10)}, {"b.log", nccl_log(10)}}, 15);
      }),
      "b.log", "with the logs before it, more than 15 connection lines");
  const TempDir tmp("p2p_ceilings");
  const std::vector<std::string> hosts = fleet(2);
  write_text_file_atomically(tmp.file("a.jsonl"), hosts[0]);
  write_text_file_atomically(tmp.file("b.jsonl"), hosts[1]);
  EXPECT_EQ(cluster::read_host_files({tmp.file("a.jsonl"), tmp.file("b.jsonl")}).size(), 2u);
  expect_refused(refusal([&] {
                   (void)cluster::read_host_files({tmp.file("a.jsonl"), tmp.file("b.jsonl")},
                                                  hosts[0].size() + 1);
                 }),
                 tmp.file("b.jsonl"), "with the files before it, more than");
}

}  // namespace
}  // namespace p2p
