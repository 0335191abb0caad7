#include "import/nccl_tests.hpp"

#include <algorithm>
#include <functional>

#include "import/nccl_tests_fields.hpp"

namespace p2p::import {

namespace {

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
      return parse_nccl_tests_json(without_bom(text), source, collective);
    } catch (const nlohmann::json::exception& e) {  // a value of the wrong type
      throw not_nccl_tests(source, json_error_tail(e.what()));
    }
  }
  return parse_text(text, source, collective);
}

}  // namespace p2p::import
