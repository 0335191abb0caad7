// nccl-tests rows -> p2pcheck NCCL records.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "common/error.hpp"
#include "document/json_limits.hpp"
#include "document/nccl_run.hpp"
#include "import/nccl_tests_fields.hpp"

namespace p2p::import {

namespace {

// What a "#  Rank  8 Group  0 Pid   6733 on ztan-mig-gq73 device  0 [0000:04:00] NVIDIA H100 80GB
// HBM3" line says of its rank (older versions print no Group). `line` is the text after '#'.
doc::DeviceRecord rank_device(const std::string& line, int rank) {
  doc::DeviceRecord d;
  d.rank = rank;
  d.cuda_device = rank;  // one process, one GPU per rank: the device is the rank's index
  const auto tokens = split_ws(line);
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    const auto value = parse_number(tokens[k + 1]);
    // Whole numbers that fit an int (pids reach 4194304), never a cast of "1e300".
    const bool whole = value && *value >= 0 && *value < 1e9 && *value == std::floor(*value);
    if (tokens[k] == "device" && whole && *value < doc::kMaxRanks)
      d.cuda_device = static_cast<int>(*value);
    if (tokens[k] == "Pid" && whole) d.pid = static_cast<int>(*value);
    if (tokens[k] == "on") d.hostname = tokens[k + 1];
  }
  const auto bracket = line.find(']');
  if (bracket != std::string::npos) d.name = trim(line.substr(bracket + 1));
  if (d.name.empty()) d.name = line;  // JSON: the device_info text
  return d;
}

// The rank a "# Rank" line names; where it names none (the JSON's device_info), its position.
// A rank beyond what a document holds is refused: a line naming rank 4095 is not 4096 ranks' worth
// of records to invent.
int rank_named(const std::string& line, std::size_t position, const std::string& file) {
  const auto tokens = split_ws(line);
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    if (tokens[k] != "Rank") continue;
    const auto value = parse_number(tokens[k + 1]);
    if (!value || *value < 0 || *value != std::floor(*value)) break;
    if (*value >= doc::kMaxRanks)
      throw InputError(file + ": \"# Rank " + tokens[k + 1] + "\": more than " +
                       std::to_string(doc::kMaxRanks) + " ranks, beyond what p2pcheck reads");
    return static_cast<int>(*value);
  }
  return static_cast<int>(std::min<std::size_t>(position, doc::kMaxRanks - 1));
}

// Each rank's device line, the first that names it: 8,000 copies of one "# Rank 0" line are one
// rank, not 4,096.
std::map<int, const std::string*> ranked_devices(const NcclTestsRun& r, const std::string& file) {
  std::map<int, const std::string*> out;
  for (std::size_t k = 0; k < r.devices.size(); ++k)
    out.emplace(rank_named(r.devices[k], k, file), &r.devices[k]);
  return out;
}

// The sizes a run measured: one out-of-place row each (the first releases printed no in-place
// half for some tests).
std::size_t sizes_of(const NcclTestsRun& r) {
  return static_cast<std::size_t>(std::count_if(r.rows.begin(), r.rows.end(),
                                                [](const NcclTestsRow& x) { return !x.in_place; }));
}

std::string p2pcheck_dtype(const std::string& t) {
  if (t == "float") return "float32";
  if (t == "half") return "float16";
  if (t == "double") return "float64";
  return t;  // bfloat16, int8, uint8, int32, ... as printed
}

// The rank count of a run: its "# Rank" lines, else what busbw/algbw gives (all_reduce moves
// 2(n-1)/n of the data per rank, all_gather, reduce_scatter and alltoall (n-1)/n; a factor of 1
// tells nothing), else 1, said in `note`.
int ranks_of(const NcclTestsRun& r, const std::string& file, std::string& note) {
  if (!r.devices.empty()) return ranked_devices(r, file).rbegin()->first + 1;
  const NcclTestsRow* best = nullptr;
  for (const auto& row : r.rows)
    if (row.algbw_gbps && row.busbw_gbps && (!best || *row.algbw_gbps > *best->algbw_gbps))
      best = &row;
  if (best && *best->algbw_gbps >= 1.0) {
    const double ratio = *best->busbw_gbps / *best->algbw_gbps;
    // Near 1 (or outside 0..2) the factor tells no rank count, and n would blow up.
    const bool telling = ratio > 0.1 && ratio < 1.98 && std::fabs(ratio - 1.0) > 0.02;
    const double n = !telling ? 0.0 : ratio > 1.0 ? 2.0 / (2.0 - ratio) : 1.0 / (1.0 - ratio);
    const double whole = std::round(n);
    const double back = ratio > 1.0 ? 2.0 * (whole - 1.0) / whole : (whole - 1.0) / whole;
    if (telling && whole >= 2 && whole <= 4096 && std::fabs(back - ratio) < 0.01 * ratio) {
      note = "assumed: " + std::to_string(static_cast<int>(whole)) +
             " ranks, from busbw/algbw (no \"# Rank\" lines name them)";
      return static_cast<int>(whole);
    }
  }
  if (r.ranks_per_process && *r.ranks_per_process > 1) {
    note = "assumed: " + std::to_string(*r.ranks_per_process) +
           " ranks, one process's (nGpus x nThread): no \"# Rank\" lines name them";
    return *r.ranks_per_process;
  }
  note = "assumed: 1 rank: no \"# Rank\" lines name the ranks, and busbw/algbw does not tell";
  return 1;
}

void add_run_notes(const NcclTestsRun& r, const std::string& ranks_note,
                   std::vector<std::string>& notes) {
  if (r.collective_source.empty())
    notes.push_back("assumed: collective unknown: the table does not name it (give --collective)");
  if (r.collective_source == "--collective")
    notes.push_back("assumed: " + r.collective + " (--collective): the table does not name it");
  if (!ranks_note.empty()) notes.push_back(ranks_note);
  const std::string label = r.collective_source.empty() ? "" : r.collective + ": ";
  if (r.avg_busbw_gbps) {
    char note[128];
    std::snprintf(note, sizeof note, "%s: Avg bus bandwidth %.4g GB/s over %zu sizes",
                  r.collective.c_str(), *r.avg_busbw_gbps, sizes_of(r));
    notes.push_back(note);
  } else {
    notes.push_back(label + "no \"# Avg bus bandwidth\" line (the summary was left out)");
  }
  if (r.wrong_is_error_magnitude)
    notes.push_back(r.collective +
                    ": an `error` column (a deviation, not a count): #wrong left null");
  for (const auto& n : r.notes) notes.push_back(label + n);
}

doc::CollectiveResult collective_result(const NcclTestsRun& r, const NcclTestsRow& row, int ranks) {
  doc::CollectiveResult c;
  c.collective = r.collective;
  c.dtype = p2pcheck_dtype(row.type);
  c.in_place = row.in_place;
  c.nranks = ranks;
  if ((r.collective == "broadcast" || r.collective == "reduce") && row.root &&
      *row.root < doc::kMaxRanks)
    c.root = row.root;
  c.size_bytes = row.size_bytes;
  c.count = row.count;
  // Counts as a banner printed them; a mangled one is unknown (0), as the document keeps them.
  const auto count = [](int v) { return v >= 0 && v <= doc::kMaxCount ? v : 0; };
  c.iterations = count(r.iterations);
  c.warmup_iterations = count(r.warmup_iterations);
  c.timing_samples = 1;  // nccl-tests times all iterations as one group and reports the mean
  c.time_us = row.time_us;
  c.algbw_gbps = row.algbw_gbps;
  c.busbw_gbps = row.busbw_gbps;
  // A #wrong that is no count (negative, fractional, 1e300: a mangled file) is left null.
  if (!r.wrong_is_error_magnitude && row.wrong) c.wrong_elements = whole_number(*row.wrong);
  if (c.wrong_elements && *c.wrong_elements > 0) {
    c.status = doc::CollectiveStatus::kWrong;
    c.detail = std::to_string(*c.wrong_elements) + " wrong elements (nccl-tests #wrong)";
  }
  return c;
}

}  // namespace

ImportedFigures nccl_tests_figures(const NcclTestsOutput& out, const std::string& file) {
  ImportedFigures f;
  f.file.file = file;
  f.file.tool = "nccl-tests";
  f.file.version = out.version;
  f.file.format = out.format;
  doc::NcclRun run;
  if (out.nccl_library_code) {
    run.environment.nccl_library_version_code = out.nccl_library_code;
    run.environment.nccl_library_version = doc::format_nccl_version(*out.nccl_library_code);
  }
  int nranks = 0;
  for (const auto& r : out.runs) {
    std::string ranks_note;
    const int ranks = ranks_of(r, file, ranks_note);
    nranks = std::max(nranks, ranks);
    if (f.hostname.empty()) f.hostname = r.hostname;
    f.file.mappings.push_back(r.collective_source.empty()
                                  ? "a table that names no collective -> nccl unknown"
                                  : r.collective + "_perf -> nccl " + r.collective);
    add_run_notes(r, ranks_note, f.file.notes);
    int empty = 0;
    for (const auto& row : r.rows) {
      // A size of 0 moved nothing: no figure to compare (and none a results document holds).
      if (row.size_bytes == 0) {
        empty += row.in_place ? 0 : 1;  // a table row holds both placements
        continue;
      }
      run.results.push_back(collective_result(r, row, ranks));
    }
    if (empty > 0)
      f.file.notes.push_back(std::to_string(empty) + " rows of size 0 left out (nothing moved)");
  }
  std::set<std::string> hosts;
  const std::map<int, const std::string*> lines = out.runs.empty()
                                                      ? std::map<int, const std::string*>{}
                                                      : ranked_devices(out.runs.front(), file);
  for (int k = 0; k < nranks; ++k) {
    doc::DeviceRecord d;
    d.rank = k;
    d.cuda_device = k;
    if (const auto it = lines.find(k); it != lines.end()) d = rank_device(*it->second, k);
    if (!d.hostname.empty()) hosts.insert(d.hostname);
    run.environment.devices.push_back(d);
  }
  // A device's hostname is for runs over several hosts only (see DeviceRecord).
  if (hosts.size() > 1) {
    f.file.notes.push_back(std::to_string(nranks) + " ranks on " + std::to_string(hosts.size()) +
                           " hosts; the hostname is rank 0's");
  } else {
    for (auto& d : run.environment.devices) d.hostname.clear();
  }
  run.environment.hostname = f.hostname;
  run.transport.nranks = nranks;  // nccl-tests logs no transport: no pair is connected
  f.file.figures = static_cast<int>(run.results.size());
  f.nccl = std::move(run);
  return f;
}

}  // namespace p2p::import
