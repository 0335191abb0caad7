// The checks of a pastes folder's EXPECTED file (see import/tests/fixtures/pastes/README.md): each
// paste imported alone, as `p2pcheck import` does, and every expectation read off it by hand
// looked up in the document. Test code only.
#pragma once

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/text_lines.hpp"
#include "document/bench_document.hpp"
#include "import/import_document.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::import::testing {

struct PasteOutcome {
  std::string error;  // the InputError, "" when imported
  std::vector<std::string> tools;
  doc::BenchDocument doc;
};

inline PasteOutcome import_alone(const std::string& text, const std::string& file) {
  PasteOutcome o;
  try {
    const ImportOptions options;
    const ImportedPaste p = import_paste(text, file, options);
    for (const auto& s : p.sections) o.tools.push_back(s.file.tool);
    o.doc = import_document(p.sections, options, "2026-12-02T11:00:00Z");
  } catch (const InputError& e) {
    o.error = e.what();
  }
  return o;
}

inline bool near(std::optional<double> v, double want) {
  return v && std::fabs(*v - want) < 1e-6 * std::max(1.0, std::fabs(want));
}

inline bool has_tool(const PasteOutcome& o, const std::string& tool) {
  return std::find(o.tools.begin(), o.tools.end(), tool) != o.tools.end();
}

inline bool has_bandwidth(const doc::BenchDocument& d, const std::vector<std::string>& a,
                          bool with_case) {
  for (const auto& b : d.bandwidth) {
    const std::size_t k = with_case ? 1 : 0;
    if (with_case && (b.case_name != a[0] || b.part != (a[3] == "-" ? "" : a[3]))) continue;
    if (b.src == a[k] && b.dst == a[k + 1] && near(b.median_gbps, std::stod(a.back()))) return true;
  }
  return false;
}

inline bool has_latency(const doc::BenchDocument& d, const std::vector<std::string>& a) {
  for (const auto& l : d.latency)
    if (l.case_name == a[0] && l.src == a[1] && l.dst == a[2] && near(l.median_ns, std::stod(a[3])))
      return true;
  return false;
}

inline std::vector<doc::CollectiveResult> nccl_rows(const doc::BenchDocument& d) {
  if (!d.nccl) return {};
  return d.nccl->run.results;
}

// nccl COLLECTIVE BYTES in_place|out_of_place time|algbw|busbw VALUE
inline bool has_nccl_row(const doc::BenchDocument& d, const std::vector<std::string>& a) {
  for (const auto& r : nccl_rows(d)) {
    if ((a[0] != "?" && r.collective != a[0]) || r.size_bytes != std::stoull(a[1]) ||
        r.in_place != (a[2] == "in_place"))
      continue;
    const auto& v = a[3] == "time" ? r.time_us : a[3] == "algbw" ? r.algbw_gbps : r.busbw_gbps;
    if (near(v, std::stod(a[4]))) return true;
  }
  return false;
}

inline bool has_nccl_ranks(const doc::BenchDocument& d, int n) {
  for (const auto& r : nccl_rows(d))
    if (r.nranks == n) return true;
  return false;
}

inline bool has_link(const doc::BenchDocument& d, std::size_t i, std::size_t j,
                     const std::string& cls) {
  if (!d.topology) return false;
  const topo::TopologySnapshot& t = *d.topology;
  if (i >= t.gpus.size() || j >= t.gpus.size()) return false;
  if (cls == "NV") return t.nvlink_count[i][j] > 0;
  return t.nvlink_count[i][j] == 0 && topo::to_string(t.pcie_matrix[i][j]) == cls;
}

inline bool gpu_check(const doc::BenchDocument& d, const std::string& what,
                      const std::vector<std::string>& a, const std::string& rest) {
  const std::size_t i = std::stoul(a[0]);
  if (i >= d.gpus.size()) return false;
  if (what == "gpuname") return d.gpus[i].name == rest;
  return d.gpus[i].numa_node == std::stoi(a[1]);
}

// One expectation ("bw host gpu0 25.13") against what the paste gave; true when it holds.
inline bool holds(const PasteOutcome& o, const std::string& file, const std::string& check) {
  const auto words = split_ws(check);
  const std::string what = words.at(0);
  const std::vector<std::string> a(words.begin() + 1, words.end());
  const std::string rest = trim(check.substr(check.find(what) + what.size()));
  if (what == "exit2")
    return o.error.rfind(file + ":", 0) == 0 || o.error.rfind(file + " (", 0) == 0;
  if (!o.error.empty()) return false;
  const auto& d = o.doc;
  if (what == "tool") return has_tool(o, a.at(0));
  if (what == "bw") return has_bandwidth(d, a, false);
  if (what == "bwcase") return has_bandwidth(d, a, true);
  if (what == "lat") return has_latency(d, a);
  if (what == "nccl") return has_nccl_row(d, a);
  if (what == "ncclranks") return has_nccl_ranks(d, std::stoi(a.at(0)));
  if (what == "topo") return has_link(d, std::stoul(a.at(0)), std::stoul(a.at(1)), a.at(2));
  if (what == "gpus") return d.gpus.size() == std::stoul(a.at(0));
  if (what == "gpuname" || what == "numa")
    return gpu_check(d, what, a, rest.substr(rest.find(' ') + 1));
  if (what == "hostname") return d.hostname == a.at(0);
  if (what == "access")
    return std::stoul(a[0]) < d.p2p_access.size() &&
           d.p2p_access[std::stoul(a[0])].at(std::stoul(a[1])) == (a.at(2) == "1");
  throw std::runtime_error("EXPECTED: unknown check \"" + what + "\"");
}

// EXPECTED as file -> its checks, in order.
inline std::map<std::string, std::vector<std::string>> expectations(const std::string& folder) {
  std::ifstream in(folder + "/EXPECTED");
  std::map<std::string, std::vector<std::string>> out;
  for (std::string line; std::getline(in, line);) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const auto space = line.find(' ');
    out[line.substr(0, space)].push_back(trim(line.substr(space + 1)));
  }
  return out;
}

// Every miss of a folder, one line each: "<file>: <check> (<why>)".
inline std::vector<std::string> misses(const std::string& folder, int& checks) {
  std::vector<std::string> out;
  checks = 0;
  for (const auto& [file, list] : expectations(folder)) {
    const PasteOutcome o = import_alone(read_text_file(folder + "/" + file), file);
    for (const auto& check : list) {
      ++checks;
      // A document the import wrote but cannot read back is a miss of that check, not the end
      // of the count.
      std::string why = o.error;
      bool ok = false;
      try {
        ok = holds(o, file, check);
      } catch (const std::exception& e) {
        why = e.what();
      }
      if (!ok) out.push_back(file + ": " + check + (why.empty() ? "" : " (" + why + ")"));
    }
  }
  return out;
}

}  // namespace p2p::import::testing
