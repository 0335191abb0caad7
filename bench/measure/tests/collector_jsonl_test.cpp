// `bench --jsonl`: the collector hands every figure to its listener the moment it is added,
// and the line writer puts each on disk at once, so the file grows figure by figure.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bench/measure/collector.hpp"
#include "common/file_io.hpp"
#include "common/json_lines.hpp"
#include "common/temp_dir.hpp"
#include "report/run_lines.hpp"

namespace p2p::bench {
namespace {

doc::BandwidthResult figure(const std::string& c, std::uint64_t bytes,
                            std::vector<double> samples) {
  doc::BandwidthResult r;
  r.case_name = c;
  r.src = "host";
  r.dst = "gpu0";
  r.bytes = bytes;
  r.samples_gbps = std::move(samples);
  refresh_statistics(r);
  return r;
}

std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::istringstream in(read_text_file(path));
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(CollectorJsonl, EveryFigureIsALineAsSoonAsItIsAdded) {
  const p2p::TempDir tmp("p2p_collector_jsonl");
  const std::string path = tmp.file("figures.jsonl");
  {
    JsonLines lines(path);
    Collector c;
    c.set_listener([&](const nlohmann::json& f) {
      lines.write(report::figure_line(f, "node1", "2026-12-02T10:00:00Z"));
    });
    c.add(figure("h2d_ce", 1 << 20, {10, 11, 12}));
    ASSERT_EQ(read_lines(path).size(), 1u) << "on disk before the next figure exists";
    doc::BandwidthResult waived = figure("ce_unidir_write", 1 << 20, {});
    waived.status = nlohmann::json("waived").get<decltype(waived.status)>();
    waived.detail = "cudaDeviceCanAccessPeer(gpu1, gpu0) = 0";
    c.add(waived);
    c.add(figure("h2d_ce", 1 << 20, {13}));  // a repetition: written again, merged
    doc::LatencyResult lat;
    lat.case_name = "latency_host";
    lat.src = "gpu0";
    lat.dst = "host";
    lat.samples_ns = {1200, 1210};
    refresh_statistics(lat);
    c.add(lat);
  }
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 4u);
  for (const auto& l : lines) {
    EXPECT_EQ(l.at("schema"), "p2pcheck.jsonl");
    EXPECT_EQ(l.at("version"), 1);
    EXPECT_EQ(l.at("host"), "node1");
    EXPECT_EQ(l.at("command"), "bench");
  }
  EXPECT_EQ(lines[0].at("kind"), "bandwidth");
  EXPECT_EQ(lines[0].at("record").at("case"), "h2d_ce");
  EXPECT_EQ(lines[1].at("record").at("status"), "waived");
  EXPECT_EQ(lines[2].at("record").at("samples_gbps").size(), 4u) << "the merged figure";
  // Read back as the results document reads a figure: the line holds the whole record.
  EXPECT_NO_THROW((void)lines[2].at("record").get<doc::BandwidthResult>());
  EXPECT_EQ(lines[3].at("kind"), "latency");
  EXPECT_NO_THROW((void)lines[3].at("record").get<doc::LatencyResult>());
}

}  // namespace
}  // namespace p2p::bench
