// `p2pcheck nccl transports LOG...`: what NCCL's INFO log of any run says about its transports,
// for people who hold a log and no GPU: per ordered pair of ranks and per channel the transport,
// each rank's host and bus id, the NCCL version, and the lines that explain a missing P2P path.
// Pure: built from parsed logs; the CLI reads the files.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nccl/transport_log.hpp"

namespace p2p::nccl {

// The most connection lines (`Channel NN/M : a[x] -> b[y] via ...`) read from the logs of one run:
// 32 channels of 4,096 ranks in a ring and a tree are about 500,000. About 1.7 KB each at most
// (--format json), so they fit 2 GB (docs/inputs-and-outputs.md, "Limits").
constexpr std::size_t kMaxLoggedConnections = 1'000'000;

struct TransportSummary {
  static constexpr int kVersion = 2;  // 2: `matrix` is the sparse transport matrix v2
  std::vector<std::string> files;     // as the user named them
  NcclLog log;                        // every file merged
  int nranks = 0;                     // from the init lines, else the highest rank seen + 1
  doc::TransportMatrix matrix;
  // (src rank, dst rank) -> channel -> every "via" text logged for it
  std::map<std::pair<int, int>, std::map<int, std::set<std::string>>> channels;
};

// InputError "<file>: not an NCCL INFO log: ..." for a file with no NCCL line at all; a partly
// readable file gives what it can, with log.unreadable_lines counting the rest.
// InputError naming the file that takes the connection lines past `max_connections`.
TransportSummary summarize_transports(
    const std::vector<std::pair<std::string, std::string>>& files_and_texts,
    std::size_t max_connections = kMaxLoggedConnections);

std::string format_transport_summary(const TransportSummary& r);
void to_json(nlohmann::json& j, const TransportSummary& r);

}  // namespace p2p::nccl
