// nvbandwidth's plain text output, whole or pasted in pieces (the JSON of -j is read by
// nvbandwidth_json.cpp): banner, device lines, each testcase's matrix and its SUM line.
#include "import/nvbandwidth.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/text_lines.hpp"
#include "import/nvbandwidth_support.hpp"

namespace p2p::import {

InputError not_nvbandwidth(const std::string& source, const std::string& why) {
  return InputError(source + ": not nvbandwidth output: " + why);
}

std::string unit_of(const std::string& description) {
  if (description.find("(ns)") != std::string::npos) return "ns";
  return "GB/s";
}

bool has_gpu_rows(const std::string& description) {
  return description.find("GPU(row)") != std::string::npos;
}

namespace {

bool is_description(const std::string& line) {
  const std::string t = trim(line);
  return !t.empty() && (t.size() > 5 && (t.compare(t.size() - 6, 6, "(GB/s)") == 0 ||
                                         t.compare(t.size() - 4, 4, "(ns)") == 0));
}

std::optional<double> cell_value(const std::string& token, bool& ok) {
  ok = true;
  if (token == "N/A") return std::nullopt;
  const auto v = parse_number(token);
  ok = v.has_value();
  return v;
}

// "SUM <key> <value>" or, with --perfFormatter, "&&&& PERF <key> <value><unit>": the tokens from
// the key on, or none.
std::vector<std::string> sum_line(const std::string& line) {
  auto tokens = split_ws(line);
  if (tokens.size() >= 4 && tokens[0] == "&&&&" && tokens[1] == "PERF")
    tokens.erase(tokens.begin());
  if (tokens.size() < 3 || (tokens[0] != "SUM" && tokens[0] != "PERF")) return {};
  return {tokens[1], tokens[2]};
}

// "55.44", or "55.44GB/s" where the number runs into its unit; nullopt for anything else.
std::optional<double> sum_value(const std::string& token) {
  if (const auto v = parse_number(token)) return v;
  char* end = nullptr;
  const double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// The rows under a matrix header from line i: whole rows only; a last row cut short is noted.
std::size_t read_rows(const std::vector<std::string>& lines, std::size_t i, std::size_t columns,
                      NvbandwidthMatrix& m, NvbandwidthOutput& out, const std::string& source) {
  for (; i < lines.size(); ++i) {
    const auto tokens = split_ws(lines[i]);
    if (tokens.empty()) break;
    if (tokens.size() < columns + 1 && no_row_follows(lines, i)) {
      out.notes.push_back(m.testcase + ": the matrix is cut in its row " +
                          std::to_string(m.cells.size()) + ": that row left out");
      return i + 1;
    }
    if (tokens.size() != columns + 1)
      throw not_nvbandwidth(source, "a row of " + m.testcase + " has " +
                                        std::to_string(tokens.size() - 1) + " values, " +
                                        std::to_string(columns) + " expected (cut or mangled)");
    std::vector<std::optional<double>> row;
    for (std::size_t k = 1; k < tokens.size(); ++k) {
      bool ok = false;
      row.push_back(cell_value(tokens[k], ok));
      if (!ok || (row.back() && *row.back() < 0))
        throw not_nvbandwidth(source, "line " + std::to_string(i + 1) + ", column " +
                                          std::to_string(k + 1) + " of " + m.testcase + ": " +
                                          figure_cell_problem(tokens[k]) + " (nor N/A)");
    }
    m.cells.push_back(std::move(row));
  }
  return i;
}

// Reads the matrix after a description line at lines[i]; returns the index after it and its SUM
// line. A matrix a paste cut keeps its whole rows; one cut before any row is noted, not kept.
std::size_t read_matrix(const std::vector<std::string>& lines, std::size_t i,
                        const std::string& testcase, NvbandwidthOutput& out,
                        const std::string& source) {
  NvbandwidthMatrix m;
  m.testcase = m.key = testcase;
  m.description = trim(lines[i]);
  m.unit = unit_of(m.description);
  const auto header = i + 1 < lines.size() ? split_ws(lines[i + 1]) : std::vector<std::string>{};
  if (header.empty()) {
    out.notes.push_back(testcase + ": cut off after its title");
    return i + 1;
  }
  i = read_rows(lines, i + 2, header.size(), m, out, source);
  const std::size_t rows_expected = has_gpu_rows(m.description) ? header.size() : 1;
  if (m.cells.size() > rows_expected)
    throw not_nvbandwidth(source, testcase + ": " + std::to_string(m.cells.size()) + " rows, " +
                                      std::to_string(rows_expected) + " expected (mangled)");
  if (m.cells.size() < rows_expected)
    out.notes.push_back(testcase + ": cut after " + std::to_string(m.cells.size()) + " of " +
                        std::to_string(rows_expected) + " rows: the rest left out");
  // Then a blank line and its SUM line, which a paste may leave out.
  std::size_t k = i;
  while (k < lines.size() && trim(lines[k]).empty()) ++k;
  const auto sum = k < lines.size() ? sum_line(lines[k]) : std::vector<std::string>{};
  if (!sum.empty()) {
    m.key = sum[0];
    m.sum = sum_value(sum[1]);
    i = k + 1;
  }
  if (!m.cells.empty()) out.matrices.push_back(std::move(m));
  return i;
}

// "Process 4 (nvbandwidth-test-worker-1): device 0: HGX GB200 (00000008:01:00)": the multinode
// build names each MPI process, its host and its device instead of "Device N: ...". Sets `host`
// and returns the device text, or nullopt for any other line.
std::optional<std::string> process_device(const std::string& line, std::string& host) {
  if (!starts_with(line, "Process ")) return std::nullopt;
  const auto open = line.find(" (");
  const auto close = line.find("): device ");
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  const auto name_at = line.find(": ", close + 10);
  if (name_at == std::string::npos) return std::nullopt;
  host = line.substr(open + 2, close - open - 2);
  return trim(line.substr(name_at + 2));
}

// The testcase of a matrix whose "Running <testcase>." line was left out of a paste: the key of
// the SUM line after it ("SUM device_to_device_memcpy_read_ce 715.53"); else a name made of the
// matrix title ("memcpy_sm_cpu_row_to_gpu_column_bandwidth"), said in a note.
std::string unnamed_testcase(const std::vector<std::string>& lines, std::size_t i,
                             NvbandwidthOutput& out) {
  for (std::size_t k = i + 1; k < lines.size(); ++k) {
    if (const auto sum = sum_line(lines[k]); !sum.empty()) return sum[0];
    if (is_description(lines[k])) break;  // the next matrix: this one has no SUM line
  }
  std::string name;
  for (const char c : trim(lines[i])) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (c == '>' && !name.empty() && name.back() == '_') {
      name += "to_";
    } else if (!name.empty() && name.back() != '_') {
      name += '_';
    }
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  out.notes.push_back("assumed: \"" + trim(lines[i]) + "\" is named " + name +
                      ": neither a Running nor a SUM line names its testcase");
  return name;
}

// "-b 512", "--bufferSize 512", "--bufferSize=512" on a pasted command line running nvbandwidth:
// the run's copy size (MiB).
std::optional<std::uint64_t> command_buffer_bytes(const std::string& line) {
  const auto tokens = split_ws(line);
  bool runs = false;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string& t = tokens[k];
    runs = runs || t.substr(t.find_last_of('/') + 1) == "nvbandwidth";
    std::string value;
    if ((t == "-b" || t == "--bufferSize") && k + 1 < tokens.size()) value = tokens[k + 1];
    if (starts_with(t, "--bufferSize=")) value = t.substr(13);
    const auto mib = parse_number(value);
    if (runs && mib && *mib >= 1 && *mib <= static_cast<double>(kMaxBufferMib) &&
        *mib == std::floor(*mib))
      return static_cast<std::uint64_t>(*mib) << 20;
  }
  return std::nullopt;
}

// Device lines, "Running" and waiver lines, a failed check: what the text says around matrices.
void read_context(const std::vector<std::string>& lines, std::size_t i, std::string& testcase,
                  NvbandwidthOutput& out, std::vector<std::string>& process_hosts) {
  const std::string t = trim(lines[i]);
  if (starts_with(t, "nvbandwidth Version:")) {
    out.version = trim(t.substr(20));
  } else if (starts_with(t, "CUDA Runtime Version:")) {
    // An encoded version (13000): a plausible whole number or none (no cast of 1e300 to int).
    const auto v = parse_number(trim(t.substr(21)));
    if (v && *v >= 0 && *v <= 1e6 && *v == static_cast<int>(*v))
      out.cuda_runtime_version = static_cast<int>(*v);
  } else if (starts_with(t, "Driver Version:")) {
    out.driver_version = trim(t.substr(15));
  } else if (starts_with(t, "Device ") && t.find(": ") != std::string::npos) {
    if (out.devices.empty() && i > 0 && !trim(lines[i - 1]).empty() &&
        trim(lines[i - 1]).find(':') == std::string::npos)
      out.hostname = trim(lines[i - 1]);
    out.devices.push_back(trim(t.substr(t.find(": ") + 2)));
  } else if (std::string host; const auto device = process_device(t, host)) {
    out.devices.push_back(*device);
    process_hosts.push_back(host);
  } else if (starts_with(t, "Running ") && t.back() == '.') {
    testcase = t.substr(8, t.size() - 9);
  } else if (starts_with(t, "Waiving ") && t.back() == '.') {
    out.not_measured.emplace_back(t.substr(8, t.size() - 9), "Waived");  // v0.2 .. v0.4
  } else if (starts_with(t, "Waived:") || starts_with(t, "ERROR:") || starts_with(t, "Error:")) {
    out.not_measured.emplace_back(t[0] != 'W' ? testcase : "", t.substr(0, t.find(':')));
  } else if (starts_with(t, "ASSERT in expression")) {
    // A failed check aborts the run (a data-pattern mismatch, a CUDA error): the testcase
    // that was running has no result, and none after it ran.
    out.not_measured.emplace_back(testcase, t.substr(0, t.find(" in ", 7)));
  } else if (const auto bytes = command_buffer_bytes(t); bytes && !out.buffer_bytes) {
    out.buffer_bytes = bytes;
  }
}

NvbandwidthOutput parse_text(const std::string& text, const std::string& source) {
  NvbandwidthOutput out;
  out.format = "text";
  const auto lines = clean_lines(text);
  std::string testcase;
  std::vector<std::string> process_hosts;
  for (std::size_t i = 0; i < lines.size();) {
    if (is_description(lines[i])) {
      i = read_matrix(lines, i, testcase.empty() ? unnamed_testcase(lines, i, out) : testcase, out,
                      source);
      continue;
    }
    if (const auto sum = sum_line(lines[i]); !sum.empty()) {
      const auto v = sum_value(sum[1]);
      if (!v || *v < 0)
        throw not_nvbandwidth(
            source, "the SUM line of " + sum[0] + " holds '" + sum[1] + "', which is no bandwidth");
      out.sums.emplace_back(sum[0], *v);
    } else {
      read_context(lines, i, testcase, out, process_hosts);
    }
    ++i;
  }
  // A run that aborted or waived every test still says so (not_measured); other text is none.
  if (out.matrices.empty() && out.sums.empty() && out.version.empty() && out.not_measured.empty())
    throw not_nvbandwidth(source, "no result matrix, SUM line or \"nvbandwidth Version:\" line");
  // A multinode run names a host per process: keep it when all are on one host, else none (the
  // hosts are in the device list's order, one per process).
  if (!process_hosts.empty() &&
      std::all_of(process_hosts.begin(), process_hosts.end(),
                  [&](const std::string& h) { return h == process_hosts.front(); }))
    out.hostname = process_hosts.front();
  out.process_hosts = std::move(process_hosts);
  return out;
}

}  // namespace

bool looks_like_nvbandwidth(const std::string& text) {
  return text.find("nvbandwidth Version:") != std::string::npos ||
         text.find("\"nvbandwidth\"") != std::string::npos;
}

NvbandwidthOutput parse_nvbandwidth(const std::string& text, const std::string& source) {
  if (starts_json_object(text)) {
    // Another tool's output: keys it adds in later versions are ignored, not refused (the
    // strict reader is for files a person writes).
    try {
      return parse_nvbandwidth_json(without_bom(text), source);
    } catch (const nlohmann::json::exception& e) {  // a value of the wrong type
      throw not_nvbandwidth(source, json_error_tail(e.what()));
    }
  }
  return parse_text(text, source);
}

}  // namespace p2p::import
