// nccl-tests output (`all_reduce_perf` and friends): the text table every version prints (the
// `#wrong` column since 2.10, `error` before it; `root` and the per-iteration columns where
// present; several tests one after another in one file) and the `-J` JSON of 2.17+. Rows become
// p2pcheck NCCL records, so `compare` judges them against `p2pcheck nccl` by operation, type,
// placement, rank count and size.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "import/imported.hpp"

namespace p2p::import {

struct NcclTestsRow {
  std::uint64_t size_bytes = 0;
  std::uint64_t count = 0;
  std::string type;   // as printed: float, half, bfloat16
  std::string redop;  // sum, none
  std::optional<int> root;
  bool in_place = false;
  std::optional<double> time_us, algbw_gbps, busbw_gbps;
  std::optional<double> wrong;  // #wrong (or the older max error); null for N/A
};

struct NcclTestsRun {
  std::string collective;  // "all_reduce", from "Collective test starting: all_reduce_perf" or the
                           // JSON args; "unknown" for a table that does not name it
  // Where the collective came from: "output" (a banner, the JSON args, the command line pasted
  // with it), "--collective", or "" where nothing named it.
  std::string collective_source;
  int iterations = 0, warmup_iterations = 0;
  std::vector<std::string>
      devices;  // "#  Rank  0 Group  0 Pid 1 on host device  0 [...] NVIDIA H200" lines
  std::string hostname;
  std::vector<NcclTestsRow> rows;
  std::optional<double> avg_busbw_gbps;    // "# Avg bus bandwidth"
  std::optional<std::uint64_t> max_bytes;  // "maxBytes" of the "# nThread ..." line
  // Ranks of one process: nThread x nGpus of that line, or -t x -g of a pasted command line that
  // starts no launcher (mpirun, srun: their process count is not known here).
  std::optional<int> ranks_per_process;
  std::optional<int> out_of_bounds;
  bool wrong_is_error_magnitude = false;  // the older `error` column: a max deviation, not a count
  std::vector<std::string> notes;         // what a paste left out: "line 14: the last row is cut"
};

struct NcclTestsOutput {
  std::string format;                    // text | json
  std::string version;                   // nccl-tests version ("2.19.6"), "" before it printed one
  std::optional<int> nccl_library_code;  // 22803
  std::vector<NcclTestsRun> runs;
};

bool looks_like_nccl_tests(const std::string& text);

// The text output whole or pasted from its table header down, with or without the `#` before
// the header and banner lines; a last row cut short is left out and said. `collective`: the
// operation when the output does not name it (a pasted table, nccl-tests before 2.13), else
// "unknown". InputError "<source>: not nccl-tests output: <what>" for a mangled table (a row cut in
// the middle, a header whose columns cannot be placed) or none at all.
NcclTestsOutput parse_nccl_tests(const std::string& text, const std::string& source,
                                 const std::string& collective = "");

// Every row, out-of-place and in-place, as p2pcheck NCCL records.
ImportedFigures nccl_tests_figures(const NcclTestsOutput& out, const std::string& file);

}  // namespace p2p::import
