#include "import/nccl_tests.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

#include "import/limits.hpp"
#include "import/nccl_tests_command_line.hpp"
#include "import/nccl_tests_fields.hpp"

namespace p2p::import {

namespace {

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
  // The `#` before it is lost where a paste was rendered as Markdown first.
  const std::string t = trim(line);
  const auto tokens = split_ws(!t.empty() && t[0] == '#' ? t.substr(1) : t);
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

// "N/A" is no figure (nccl-tests prints it for #wrong without -c). Anything else must be a
// figure: "nan" or "inf" (a time of zero divided into a size) is refused below with its cell,
// never imported as a missing figure that a comparison passes over.
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
    require_room_for_a_figure(run.rows.size(), source);
    NcclTestsRow r = base;
    r.in_place = half == 1;
    const std::size_t at = c.groups[half];
    bool ok_time = false, ok_alg = false, ok_bus = false, ok_wrong = true;
    r.time_us = number_or_na(tokens[at + c.time], ok_time);
    r.algbw_gbps = number_or_na(tokens[at + c.algbw], ok_alg);
    r.busbw_gbps = number_or_na(tokens[at + c.busbw], ok_bus);
    if (c.wrong) r.wrong = number_or_na(tokens[at + *c.wrong], ok_wrong);
    const std::tuple<const char*, std::size_t, const std::optional<double>&, bool> fields[] = {
        {"time", at + c.time, r.time_us, ok_time},
        {"algbw", at + c.algbw, r.algbw_gbps, ok_alg},
        {"busbw", at + c.busbw, r.busbw_gbps, ok_bus}};
    for (const auto& [name, column, value, ok] : fields) {
      if (!ok || (value && *value < 0))
        throw not_nccl_tests(source, "line " + std::to_string(line_no) + ", column " +
                                         std::to_string(column + 1) + " (" + name +
                                         "): " + figure_cell_problem(tokens[column]));
    }
    if (!ok_wrong)
      throw not_nccl_tests(source, "line " + std::to_string(line_no) + ", column " +
                                       std::to_string(at + *c.wrong + 1) +
                                       " (#wrong): neither a number nor N/A");
    run.rows.push_back(std::move(r));
  }
}

// The text without the `#` that banner and header lines start with.
std::string unmarked(const std::string& t) {
  return !t.empty() && t[0] == '#' ? trim(t.substr(1)) : t;
}

// A result row starts with its size: any number strtod reads whole, "nan" and "1e400" included
// (a row with such a size is a bad row, not a line to pass over).
bool starts_a_row(const std::string& token) {
  return parse_number(token) || is_non_finite_number(token);
}

// A row cut short is the table's last when no row follows it: a paste that ends there.
bool last_row(const std::vector<std::string>& lines, std::size_t i) {
  for (std::size_t j = i + 1; j < lines.size(); ++j) {
    const auto tokens = split_ws(lines[j]);
    if (!tokens.empty()) return !starts_a_row(tokens[0]);
  }
  return true;
}

void read_run_banner(const std::string& body, NcclTestsRun& run) {
  const auto tokens = split_ws(body);
  for (std::size_t k = 0; k + 2 < tokens.size(); ++k) {
    if (tokens[k] == "warmup" && tokens[k + 1] == "iters:")
      run.warmup_iterations = std::atoi(tokens[k + 2].c_str());
    if (tokens[k] == "iters:" && (k == 0 || tokens[k - 1] != "warmup") &&
        (k == 0 || tokens[k - 1] != "agg"))
      run.iterations = std::atoi(tokens[k + 1].c_str());
  }
  int threads = 1, gpus = 0;
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    if (tokens[k] == "maxBytes") run.max_bytes = whole_number(tokens[k + 1]);
    if (tokens[k] == "nThread") threads = std::max(1, std::atoi(tokens[k + 1].c_str()));
    if (tokens[k] == "nGpus") gpus = std::atoi(tokens[k + 1].c_str());
  }
  if (gpus > 0 && threads * gpus <= 4096) run.ranks_per_process = threads * gpus;
}

class TextReader {
 public:
  TextReader(const std::string& source, const std::string& collective)
      : source_(source), collective_(collective) {
    out_.format = "text";
  }

  void read(const std::vector<std::string>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string t = trim(lines[i]);
      if (!t.empty() && !read_banner(t, unmarked(t), i + 1)) read_other(lines, t, i);
    }
  }

  NcclTestsOutput finish();

 private:
  NcclTestsRun& start_run() {
    out_.runs.emplace_back();
    NcclTestsRun& r = out_.runs.back();
    r.collective = collective_.empty() ? command_collective_ : collective_;
    r.ranks_per_process = command_ranks_;
    r.collective_source = !collective_.empty()          ? "--collective"
                          : command_collective_.empty() ? ""
                                                        : "output";
    run_ = &r;
    columns_.reset();
    return r;
  }
  NcclTestsRun& run() { return run_ ? *run_ : start_run(); }

  bool read_banner(const std::string& t, const std::string& body, std::size_t line_no);
  void read_other(const std::vector<std::string>& lines, const std::string& t, std::size_t i);

  const std::string& source_;
  const std::string& collective_;
  NcclTestsOutput out_;
  NcclTestsRun* run_ = nullptr;
  std::optional<Columns> columns_;
  std::size_t header_line_ = 0;       // the last table header, for a table without rows
  std::string command_collective_;    // from the last pasted command line, for outputs naming none
  std::optional<int> command_ranks_;  // and the ranks it runs in one process
  std::string failure_;               // the first "Test ... failure" line
};

// The lines of a run other than its rows: version, collective, banner, ranks, header, summary
// (each with or without its `#`). False for any other line.
bool TextReader::read_banner(const std::string& t, const std::string& body, std::size_t line_no) {
  if (starts_with(body, "nccl-tests version ")) {
    const auto tokens = split_ws(body);
    if (tokens.size() < 3)
      throw not_nccl_tests(
          source_, "line " + std::to_string(line_no) + ": a version line without a version");
    out_.version = tokens[2];
    for (const auto& tok : tokens)
      if (starts_with(tok, "nccl-library=")) out_.nccl_library_code = std::atoi(tok.c_str() + 13);
  } else if (starts_with(body, "Collective test starting:")) {
    NcclTestsRun& r = start_run();
    r.collective = collective_of_program(trim(body.substr(25)));
    r.collective_source = "output";
  } else if (starts_with(body, "nThread ")) {
    // Older versions start here (no "Collective test starting" line): a new test unless one just
    // began.
    if (!run_ || !run_->rows.empty() || run_->iterations > 0) start_run();
    read_run_banner(body, *run_);
  } else if (starts_with(body, "Rank ") && body.find(" device ") != std::string::npos) {
    // "#  Rank  0 Group  0 Pid ..." (2.10+), "#   Rank  0 Pid ..." (before Group was printed).
    NcclTestsRun& r = run();
    r.devices.push_back(body);
    const auto tokens = split_ws(body);
    // Rank 0's host: a run over several hosts names each rank's (kept per device).
    for (std::size_t k = 0; k + 1 < tokens.size() && r.hostname.empty(); ++k)
      if (tokens[k] == "on") r.hostname = tokens[k + 1];
  } else if (auto c = header_columns(t, source_, line_no)) {
    run().wrong_is_error_magnitude = c->error_column;
    columns_ = c;
    header_line_ = line_no;
  } else if (starts_with(body, "Avg bus bandwidth")) {
    const auto colon = body.find(':');
    const auto value =
        colon == std::string::npos ? std::vector<std::string>{} : split_ws(body.substr(colon + 1));
    if (run_ && !value.empty()) run_->avg_busbw_gbps = parse_number(value[0]);
  } else if (starts_with(body, "Out of bounds values")) {
    if (run_) run_->out_of_bounds = std::atoi(trim(body.substr(body.find(':') + 1)).c_str());
  } else {
    return t[0] == '#';  // a comment line of the output
  }
  return true;
}

void TextReader::read_other(const std::vector<std::string>& lines, const std::string& t,
                            std::size_t i) {
  if (failure_.empty() && is_test_failure(t)) failure_ = t;
  if (const auto c = collective_of_command_line(t); !c.empty()) {
    command_collective_ = c;
    command_ranks_ = ranks_of_command_line(t);
  }
  // A result row starts with its size; anything else (NCCL INFO lines, warnings, "...") is not
  // ours.
  const auto tokens = split_ws(t);
  if (!columns_ || !starts_a_row(tokens[0])) return;
  if (tokens.size() < columns_->width() && last_row(lines, i)) {
    run_->notes.push_back("line " + std::to_string(i + 1) + ": the last row is cut (" +
                          std::to_string(tokens.size()) + " of " +
                          std::to_string(columns_->width()) + " fields): left out");
    return;
  }
  read_row(tokens, *columns_, *run_, source_, i + 1);
}

NcclTestsOutput TextReader::finish() {
  auto& runs = out_.runs;
  runs.erase(std::remove_if(runs.begin(), runs.end(),
                            [](const NcclTestsRun& r) { return r.rows.empty(); }),
             runs.end());
  if (runs.empty() && !failure_.empty())
    throw not_nccl_tests(source_, "the test failed before its first result row: " + failure_);
  if (runs.empty() && header_line_ > 0)
    throw not_nccl_tests(source_, "line " + std::to_string(header_line_) +
                                      ": a table header with no complete row under it");
  if (runs.empty())
    throw not_nccl_tests(source_,
                         "no result table (a \"# size count type ...\" header and its rows)");
  for (auto& r : runs) {
    require_a_figure(r, source_);
    if (r.collective.empty()) r.collective = "unknown";
  }
  return std::move(out_);
}

NcclTestsOutput parse_text(const std::string& text, const std::string& source,
                           const std::string& collective) {
  TextReader reader(source, collective);
  reader.read(clean_lines(text));
  return reader.finish();
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
