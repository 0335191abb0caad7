// nvbandwidth output: the plain text every version prints (v0.2 .. v0.8) and the JSON of `-j`
// (v0.5 and later). Parsing keeps every testcase matrix as printed; mapping turns them into
// p2pcheck figures, named by meaning where p2pcheck measures the same thing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "import/imported.hpp"

namespace p2p::import {

struct NvbandwidthMatrix {
  std::string testcase;  // "device_to_device_bidirectional_memcpy_write_ce"
  std::string key;  // the SUM key: the testcase, or "<testcase>_write1" etc. (v0.6+ bidirectional)
  std::string description;  // "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)"
  std::string unit;         // "GB/s" | "ns"
  std::vector<std::vector<std::optional<double>>> cells;  // [row][column]; N/A is nullopt
  std::optional<double> sum;                              // the SUM line (text) or "sum" (JSON)
};

struct NvbandwidthOutput {
  std::string format;                       // text | json
  std::string version;                      // "v0.8"
  std::optional<int> cuda_runtime_version;  // 13000
  std::string driver_version;
  std::string hostname;
  std::vector<std::string> devices;  // "NVIDIA H200 (00000000:00:06)", by index
  // Multinode runs: the host of each process, in the order of `devices` (empty otherwise).
  std::vector<std::string> process_hosts;
  std::vector<NvbandwidthMatrix> matrices;
  std::vector<std::pair<std::string, std::string>>
      not_measured;                           // (testcase or "", status: Waived, Error ...)
  std::optional<std::uint64_t> buffer_bytes;  // -j's bufferSize, or -b on a pasted command line
  // SUM lines pasted without their matrix: (key, GB/s).
  std::vector<std::pair<std::string, double>> sums;
  std::vector<std::string> notes;  // what a paste left out: "host_to_device_memcpy_ce: cut ..."
};

bool looks_like_nvbandwidth(const std::string& text);

// The text whole or pasted in pieces: no banner or device list needed, a matrix without its
// SUM line or cut after some rows keeps what it has (said in `notes`), a SUM line alone is a
// figure. InputError "<source>: not nvbandwidth output: <what>" when the text is mangled (a row
// cut in the middle of a matrix, a cell that is no number) or holds no matrix.
NvbandwidthOutput parse_nvbandwidth(const std::string& text, const std::string& source);

// Figures: testcases p2pcheck also measures get p2pcheck's case names (h2d_ce, ce_unidir_read,
// latency_host, ...); the others keep nvbandwidth's own key. Copies are `buffer_bytes` long:
// given by the caller, else what the output says, else the version's default (512 MiB from
// v0.7, 64 MiB before), noted in the file record.
ImportedFigures nvbandwidth_figures(const NvbandwidthOutput& out, const std::string& file,
                                    std::optional<std::uint64_t> buffer_bytes = std::nullopt);

}  // namespace p2p::import
