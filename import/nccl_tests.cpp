#include "import/nccl_tests.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"
#include "document/nccl_run.hpp"
#include "import/text_lines.hpp"

namespace p2p::import {

namespace {

InputError not_nccl_tests(const std::string& source, const std::string& why) {
  return InputError(source + ": not nccl-tests output: " + why);
}

// "./build/all_reduce_perf" or "all_reduce_perf_mpi" -> "all_reduce".
std::string collective_of_program(std::string p) {
  const auto slash = p.find_last_of('/');
  if (slash != std::string::npos) p = p.substr(slash + 1);
  const auto perf = p.find("_perf");
  return perf == std::string::npos ? "" : p.substr(0, perf);
}

// The collective a pasted command line runs ("$ ./build/all_reduce_perf -b 8 ...", "mpirun ...
// /opt/nccl-tests/build/all_gather_perf_mpi ..."): "" when no token of the line is a *_perf or
// *_perf_mpi program.
std::string collective_of_command_line(const std::string& line) {
  for (const auto& token : split_ws(line)) {
    const std::string program = token.substr(token.find_last_of('/') + 1);  // npos + 1 == 0
    const auto perf = program.find("_perf");
    if (perf == std::string::npos || perf == 0) continue;
    const std::string tail = program.substr(perf);
    if (tail != "_perf" && tail != "_perf_mpi") continue;
    std::string name = program.substr(0, perf);
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos) return name;
  }
  return "";
}

// The first line saying the test itself failed ("GENOA-06: Test NCCL failure common.cu:392
// 'unhandled cuda error ...'", " .. host pid 5068: Test failure common.cu:590").
bool is_test_failure(const std::string& line) {
  return line.find("Test NCCL failure") != std::string::npos ||
         line.find("Test CUDA failure") != std::string::npos ||
         line.find("Test failure") != std::string::npos;
}

// The table's columns, from its header line. nccl-tests printed several layouts over the years:
// "size count type redop root time algbw busbw #wrong time ..." (2.13+, every test), per-test
// lead columns before that ("size count type" for all_gather, "+ root" for broadcast, "+ redop"
// for all_reduce, both for reduce; `error` for `#wrong`), and the first releases "bytes N type
// [op|root] time algbw busbw res", broadcast with no in-place half. A row has the lead columns,
// then one group (time algbw busbw [#wrong] [per-iteration]) per placement printed.
struct Columns {
  std::size_t type = 2;
  std::optional<std::size_t> redop, root;
  std::vector<std::size_t> groups;  // where each placement's group starts: out-of-place, in-place
  std::size_t time = 0, algbw = 1, busbw = 2;  // offsets within a group
  std::optional<std::size_t> wrong;            // #wrong, error or res; absent in none so far
  bool error_column = false;                   // `error`/`res` (before 2.10): a deviation
  std::size_t width() const { return groups.back() + group_size; }
  std::size_t group_size = 0;
};

bool is_time_label(const std::string& t) { return t == "time" || t == "cputime"; }

std::optional<std::size_t> offset_of(const std::vector<std::string>& group, const char* name) {
  const auto it = std::find(group.begin(), group.end(), name);
  if (it == group.end()) return std::nullopt;
  return static_cast<std::size_t>(it - group.begin());
}

// The lead columns before the first time label: size and count first, then type, redop (`op`)
// and root as the test printed them.
void read_lead_columns(const std::vector<std::string>& tokens, std::size_t end, Columns& c,
                       const std::function<InputError(const std::string&)>& refuse) {
  bool type = false;
  for (std::size_t k = 2; k < end; ++k) {
    if (tokens[k] == "type") {
      c.type = k;
      type = true;
    } else if (tokens[k] == "redop" || tokens[k] == "op") {
      c.redop = k;
    } else if (tokens[k] == "root") {
      c.root = k;
    } else {
      throw refuse("unknown column \"" + tokens[k] + "\" before the timings");
    }
  }
  if (!type) throw refuse("no \"type\" column");
}

// The groups after the lead columns: each starts at a time label and names algbw and busbw at
// the same offsets; a trailing `timestamp` column (2.18+ with -Z) is no part of them.
void read_groups(std::vector<std::string> tokens, std::size_t first, Columns& c,
                 const std::function<InputError(const std::string&)>& refuse) {
  if (tokens.back() == "timestamp") tokens.pop_back();
  std::vector<std::vector<std::string>> groups;
  for (std::size_t k = first; k < tokens.size(); ++k) {
    if (is_time_label(tokens[k])) {
      c.groups.push_back(k);
      groups.emplace_back();
    }
    groups.back().push_back(tokens[k]);
  }
  if (groups.size() > 2)
    throw refuse(std::to_string(groups.size()) +
                 " timing groups (out-of-place and in-place are all there are)");
  const auto& g = groups.front();
  const auto algbw = offset_of(g, "algbw"), busbw = offset_of(g, "busbw");
  if (!algbw || !busbw) throw refuse("no \"algbw\" and \"busbw\" after \"time\"");
  if (groups.size() == 2 && groups[1] != g)
    throw refuse("the in-place columns differ from the out-of-place ones");
  c.group_size = g.size();
  c.algbw = *algbw;
  c.busbw = *busbw;
  c.wrong = offset_of(g, "#wrong");
  for (const char* deviation : {"error", "res"}) {
    if (!c.wrong && offset_of(g, deviation)) {
      c.wrong = offset_of(g, deviation);
      c.error_column = true;
    }
  }
}

// nullopt for a line that is no table header; InputError for a header whose columns this reader
// cannot place (a row read against a guessed layout would put figures in the wrong fields).
std::optional<Columns> header_columns(const std::string& line, const std::string& source,
                                      std::size_t line_no) {
  if (!starts_with(trim(line), "#")) return std::nullopt;
  const auto tokens = split_ws(line.substr(line.find('#') + 1));
  if (tokens.size() < 2 || (tokens[0] != "size" && tokens[0] != "bytes") ||
      (tokens[1] != "count" && tokens[1] != "N"))
    return std::nullopt;
  const auto refuse = [&](const std::string& why) {
    return not_nccl_tests(source, "line " + std::to_string(line_no) +
                                      ": a table header whose columns cannot be read: " + why);
  };
  const auto first_time = std::find_if(tokens.begin(), tokens.end(), is_time_label);
  if (first_time == tokens.end()) throw refuse("no \"time\" column");
  const auto lead_end = static_cast<std::size_t>(first_time - tokens.begin());
  Columns c;
  read_lead_columns(tokens, lead_end, c, refuse);
  read_groups(tokens, lead_end, c, refuse);
  return c;
}

std::optional<double> number_or_na(const std::string& t, bool& ok) {
  ok = true;
  if (t == "N/A") return std::nullopt;
  const auto v = parse_number(t);
  ok = v.has_value();
  return v;
}

// A size or element count as printed: a whole number 0..kMaxDocumentBytes. Anything else
// ("1e400", "-5", "2.5") is a mangled row; casting it would be undefined behaviour.
std::optional<std::uint64_t> whole_number(double v) {
  if (!std::isfinite(v) || v < 0 || v > static_cast<double>(kMaxDocumentBytes) ||
      v != std::floor(v))
    return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

std::optional<std::uint64_t> whole_number(const std::string& t) {
  const auto v = parse_number(t);
  return v ? whole_number(*v) : std::nullopt;
}

// The same from the JSON output: `key` of `j` as an integer 0..hi (0 when absent).
template <class T>
T json_whole_number(const nlohmann::json& j, const char* key, T hi, const std::string& source) {
  if (!j.contains(key)) return 0;
  try {
    return checked_integer<T>(j.at(key), key, 0, hi);
  } catch (const InputError& e) {
    throw not_nccl_tests(source, e.what());
  }
}

void read_row(const std::vector<std::string>& tokens, const Columns& c, NcclTestsRun& run,
              const std::string& source, std::size_t line_no) {
  const std::size_t needed = c.width();
  if (tokens.size() < needed)
    throw not_nccl_tests(source, "line " + std::to_string(line_no) + ": a result row with " +
                                     std::to_string(tokens.size()) + " fields, " +
                                     std::to_string(needed) + " expected (cut or mangled)");
  NcclTestsRow base;
  const auto size = whole_number(tokens[0]);
  const auto count = whole_number(tokens[1]);
  if (!size || !count)
    throw not_nccl_tests(
        source, "line " + std::to_string(line_no) + ": size and count must be whole numbers");
  base.size_bytes = *size;
  base.count = *count;
  base.type = tokens[c.type];
  if (c.redop) base.redop = tokens[*c.redop];
  if (c.root) {
    const int root = std::atoi(tokens[*c.root].c_str());
    if (root >= 0) base.root = root;
  }
  for (std::size_t half = 0; half < c.groups.size(); ++half) {
    NcclTestsRow r = base;
    r.in_place = half == 1;
    const std::size_t at = c.groups[half];
    bool ok_time = false, ok_alg = false, ok_bus = false, ok_wrong = true;
    r.time_us = number_or_na(tokens[at + c.time], ok_time);
    r.algbw_gbps = number_or_na(tokens[at + c.algbw], ok_alg);
    r.busbw_gbps = number_or_na(tokens[at + c.busbw], ok_bus);
    if (c.wrong) r.wrong = number_or_na(tokens[at + *c.wrong], ok_wrong);
    if (!ok_time || !ok_alg || !ok_bus || !ok_wrong)
      throw not_nccl_tests(source, "line " + std::to_string(line_no) +
                                       ": a result field is neither a number nor N/A");
    run.rows.push_back(std::move(r));
  }
}

NcclTestsOutput parse_text(const std::string& text, const std::string& source,
                           const std::string& collective) {
  NcclTestsOutput out;
  out.format = "text";
  const auto lines = clean_lines(text);
  NcclTestsRun* run = nullptr;
  std::optional<Columns> columns;
  std::string command_collective;  // from the last pasted command line, for outputs naming none
  std::string failure;             // the first "Test ... failure" line
  const auto start_run = [&]() -> NcclTestsRun& {
    out.runs.emplace_back();
    out.runs.back().collective = collective.empty() ? command_collective : collective;
    run = &out.runs.back();
    columns.reset();
    return *run;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t.empty()) continue;
    if (starts_with(t, "# nccl-tests version ")) {
      const auto tokens = split_ws(t);
      if (tokens.size() < 4)
        throw not_nccl_tests(
            source, "line " + std::to_string(i + 1) + ": a version line without a version");
      out.version = tokens[3];
      for (const auto& tok : tokens)
        if (starts_with(tok, "nccl-library=")) out.nccl_library_code = std::atoi(tok.c_str() + 13);
      continue;
    }
    if (starts_with(t, "# Collective test starting:")) {
      start_run().collective = collective_of_program(trim(t.substr(27)));
      continue;
    }
    if (starts_with(t, "# nThread ")) {
      // Older versions start here (no "Collective test starting" line): a new test unless one just
      // began.
      if (!run || !run->rows.empty() || run->iterations > 0) start_run();
      const auto tokens = split_ws(t);
      for (std::size_t k = 0; k + 2 < tokens.size(); ++k) {
        if (tokens[k] == "warmup" && tokens[k + 1] == "iters:")
          run->warmup_iterations = std::atoi(tokens[k + 2].c_str());
        if (tokens[k] == "iters:" && (k == 0 || tokens[k - 1] != "warmup") &&
            (k == 0 || tokens[k - 1] != "agg"))
          run->iterations = std::atoi(tokens[k + 1].c_str());
      }
      for (std::size_t k = 0; k + 1 < tokens.size(); ++k)
        if (tokens[k] == "maxBytes") run->max_bytes = whole_number(tokens[k + 1]);
      continue;
    }
    // "#  Rank  0 Group  0 Pid ..." (2.10+), "#   Rank  0 Pid ..." (before Group was printed).
    if (t[0] == '#' && starts_with(trim(t.substr(1)), "Rank ")) {
      if (!run) start_run();
      run->devices.push_back(trim(t.substr(1)));
      const auto tokens = split_ws(t);
      // Rank 0's host: a run over several hosts names each rank's (kept per device).
      for (std::size_t k = 0; k + 1 < tokens.size() && run->hostname.empty(); ++k)
        if (tokens[k] == "on") run->hostname = tokens[k + 1];
      continue;
    }
    if (auto c = header_columns(t, source, i + 1)) {
      if (!run) start_run();
      columns = c;
      run->wrong_is_error_magnitude = c->error_column;
      continue;
    }
    if (starts_with(t, "# Avg bus bandwidth")) {
      const auto value = t.find(':') == std::string::npos ? std::vector<std::string>{}
                                                          : split_ws(t.substr(t.find(':') + 1));
      if (run && !value.empty()) run->avg_busbw_gbps = parse_number(value[0]);
      continue;
    }
    if (starts_with(t, "# Out of bounds values")) {
      if (run) run->out_of_bounds = std::atoi(trim(t.substr(t.find(':') + 1)).c_str());
      continue;
    }
    if (t[0] == '#') continue;
    if (failure.empty() && is_test_failure(t)) failure = t;
    if (const auto c = collective_of_command_line(t); !c.empty()) command_collective = c;
    // A result row starts with its size; anything else (NCCL INFO lines, warnings) is not ours.
    const auto tokens = split_ws(t);
    if (!columns || !parse_number(tokens[0])) continue;
    read_row(tokens, *columns, *run, source, i + 1);
  }
  out.runs.erase(std::remove_if(out.runs.begin(), out.runs.end(),
                                [](const NcclTestsRun& r) { return r.rows.empty(); }),
                 out.runs.end());
  if (out.runs.empty() && !failure.empty())
    throw not_nccl_tests(source, "the test failed before its first result row: " + failure);
  if (out.runs.empty())
    throw not_nccl_tests(source,
                         "no result table (a \"# size count type ...\" header and its rows)");
  for (const auto& r : out.runs) {
    if (r.collective.empty())
      throw not_nccl_tests(
          source,
          "the output does not name its collective (nccl-tests before 2.13): give --collective");
    // The summary is missing from a cut file, and from a paste trimmed after its last row: the
    // rows reaching the maxBytes the run announced tell the two apart.
    const bool table_complete = r.max_bytes && r.rows.back().size_bytes >= *r.max_bytes;
    if (!r.avg_busbw_gbps && !table_complete)
      throw not_nccl_tests(source, r.collective + ": no \"# Avg bus bandwidth\" line (cut short?)");
  }
  return out;
}

std::optional<double> json_opt(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null() || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<double>();
}

NcclTestsOutput parse_json(const std::string& text, const std::string& source,
                           const std::string& collective) {
  NcclTestsOutput out;
  out.format = "json";
  const nlohmann::json doc = parse_json_text(text, source);
  if (!doc.is_object() || !doc.contains("results") || !doc.contains("nccl_version"))
    throw not_nccl_tests(source, "a JSON document without \"nccl_version\" and \"results\"");
  if (doc.at("nccl_version").is_number_integer())
    out.nccl_library_code = doc.at("nccl_version").get<int>();
  NcclTestsRun run;
  run.collective = collective;
  if (doc.contains("args") && doc.at("args").is_array() && !doc.at("args").empty() &&
      doc.at("args")[0].is_string())
    run.collective = collective_of_program(doc.at("args")[0].get<std::string>());
  const nlohmann::json* config = doc.contains("config") ? &doc.at("config") : nullptr;
  if (config && config->is_object()) {
    run.iterations =
        json_whole_number(*config, "iterations", std::numeric_limits<int>::max(), source);
    run.warmup_iterations =
        json_whole_number(*config, "warmup_iters", std::numeric_limits<int>::max(), source);
    if (config->contains("devices") && config->at("devices").is_array()) {
      for (const auto& d : config->at("devices")) {
        run.devices.push_back(d.value("device_info", std::string()));
        run.hostname = d.value("hostname", run.hostname);
      }
    }
  }
  if (!doc.at("results").is_array()) throw not_nccl_tests(source, "\"results\" is not a list");
  for (const auto& r : doc.at("results")) {
    NcclTestsRow base;
    if (!r.is_object()) throw not_nccl_tests(source, "a \"results\" entry is not an object");
    base.size_bytes = json_whole_number(r, "size", kMaxDocumentBytes, source);
    base.count = json_whole_number(r, "count", kMaxDocumentBytes, source);
    base.type = r.value("type", std::string());
    base.redop = r.value("redop", std::string());
    const int root = std::atoi(trim(r.value("root", std::string("-1"))).c_str());
    if (root >= 0) base.root = root;
    for (const char* part : {"out_of_place", "in_place"}) {
      if (!r.contains(part) || r.at(part).is_null()) continue;
      const auto& p = r.at(part);
      NcclTestsRow row = base;
      row.in_place = std::string(part) == "in_place";
      row.time_us = json_opt(p, "time");
      if (!row.time_us) row.time_us = json_opt(p, "cpu_time");
      row.algbw_gbps = json_opt(p, "alg_bw");
      row.busbw_gbps = json_opt(p, "bus_bw");
      row.wrong = json_opt(p, "nwrong");
      run.rows.push_back(std::move(row));
    }
  }
  if (doc.contains("average_bus_bandwidth") && doc.at("average_bus_bandwidth").is_object())
    run.avg_busbw_gbps = json_opt(doc.at("average_bus_bandwidth"), "bandwidth");
  if (doc.contains("out_of_bounds") && doc.at("out_of_bounds").is_object())
    run.out_of_bounds = json_whole_number(doc.at("out_of_bounds"), "count",
                                          std::numeric_limits<int>::max(), source);
  if (run.rows.empty()) throw not_nccl_tests(source, "\"results\" holds no row");
  if (run.collective.empty())
    throw not_nccl_tests(source, "the output does not name its collective: give --collective");
  out.runs.push_back(std::move(run));
  return out;
}

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
    if (tokens[k] == "device" && whole) d.cuda_device = static_cast<int>(*value);
    if (tokens[k] == "Pid" && whole) d.pid = static_cast<int>(*value);
    if (tokens[k] == "on") d.hostname = tokens[k + 1];
  }
  const auto bracket = line.find(']');
  if (bracket != std::string::npos) d.name = trim(line.substr(bracket + 1));
  if (d.name.empty()) d.name = line;  // JSON: the device_info text
  return d;
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

}  // namespace

bool looks_like_nccl_tests(const std::string& text) {
  return text.find("# nccl-tests version") != std::string::npos ||
         text.find("# Avg bus bandwidth") != std::string::npos ||
         (text.find("# nThread ") != std::string::npos &&
          text.find("# Using devices") != std::string::npos) ||
         (text.find("\"nccl_version\"") != std::string::npos &&
          text.find("\"alg_bw\"") != std::string::npos);
}

NcclTestsOutput parse_nccl_tests(const std::string& text, const std::string& source,
                                 const std::string& collective) {
  if (starts_json_object(text)) {
    // Another tool's output: keys it adds in later versions are ignored, not refused (the
    // strict reader is for files a person writes).
    try {
      return parse_json(without_bom(text), source, collective);
    } catch (const nlohmann::json::exception& e) {  // a value of the wrong type
      throw not_nccl_tests(source, json_error_tail(e.what()));
    }
  }
  return parse_text(text, source, collective);
}

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
    const int ranks = std::max<int>(1, static_cast<int>(r.devices.size()));
    nranks = std::max(nranks, ranks);
    if (f.hostname.empty()) f.hostname = r.hostname;
    f.file.mappings.push_back(r.collective + "_perf -> nccl " + r.collective);
    if (r.avg_busbw_gbps) {
      char note[128];
      std::snprintf(note, sizeof note, "%s: Avg bus bandwidth %.4g GB/s over %zu sizes",
                    r.collective.c_str(), *r.avg_busbw_gbps, sizes_of(r));
      f.file.notes.push_back(note);
    } else {
      f.file.notes.push_back(r.collective +
                             ": no \"# Avg bus bandwidth\" line, though the rows reach maxBytes "
                             "(the summary was left out)");
    }
    if (r.wrong_is_error_magnitude)
      f.file.notes.push_back(r.collective +
                             ": an `error` column (a deviation, not a count): #wrong left null");
    for (const auto& row : r.rows) {
      doc::CollectiveResult c;
      c.collective = r.collective;
      c.dtype = p2pcheck_dtype(row.type);
      c.in_place = row.in_place;
      c.nranks = ranks;
      c.root = r.collective == "broadcast" || r.collective == "reduce" ? row.root : std::nullopt;
      c.size_bytes = row.size_bytes;
      c.count = row.count;
      c.iterations = r.iterations;
      c.warmup_iterations = r.warmup_iterations;
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
      run.results.push_back(std::move(c));
    }
  }
  std::vector<std::string> hosts;
  for (int k = 0; k < nranks; ++k) {
    doc::DeviceRecord d;
    d.rank = k;
    d.cuda_device = k;
    if (!out.runs.empty() && static_cast<std::size_t>(k) < out.runs.front().devices.size())
      d = rank_device(out.runs.front().devices[static_cast<std::size_t>(k)], k);
    if (!d.hostname.empty() && std::find(hosts.begin(), hosts.end(), d.hostname) == hosts.end())
      hosts.push_back(d.hostname);
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
  run.transport.nranks = nranks;
  run.transport.cells.assign(static_cast<std::size_t>(nranks),
                             std::vector<doc::TransportCell>(static_cast<std::size_t>(nranks)));
  f.file.figures = static_cast<int>(run.results.size());
  f.nccl = std::move(run);
  return f;
}

}  // namespace p2p::import
