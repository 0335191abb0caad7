// The JSON nvbandwidth writes with -j (v0.5 and later): the run's versions and devices, and each
// testcase's matrix, the three of a bidirectional testcase split back apart.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/text_lines.hpp"
#include "import/nvbandwidth_support.hpp"

namespace p2p::import {

namespace {

using Rows = std::vector<std::vector<std::optional<double>>>;

double json_number(const nlohmann::json& v, bool& ok) {
  ok = true;
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    if (const auto n = parse_number(v.get<std::string>())) return *n;
  }
  ok = false;
  return 0;
}

// "GPU Device list": each entry "0: NVIDIA H200 (00000000:00:06): (vm)", the device kept and
// the host in parentheses taken as the run's host name.
void read_devices(const nlohmann::json& root, NvbandwidthOutput& out) {
  if (!root.contains("GPU Device list") || !root.at("GPU Device list").is_array()) return;
  for (const auto& d : root.at("GPU Device list")) {
    if (!d.is_string()) continue;
    std::string s = d.get<std::string>();  // "0: NVIDIA H200 (00000000:00:06): (vm)"
    const auto colon = s.find(": ");
    if (colon != std::string::npos) s = s.substr(colon + 2);
    const auto host_at = s.rfind(": (");
    if (host_at != std::string::npos && s.back() == ')') {
      out.hostname = s.substr(host_at + 3, s.size() - host_at - 4);
      s = s.substr(0, host_at);
    }
    out.devices.push_back(s);
  }
}

// A testcase's "bandwidth_matrix" as rows of numbers, "N/A" as none.
Rows matrix_rows(const nlohmann::json& matrix, const std::string& name, const std::string& source) {
  if (!matrix.is_array() || matrix.empty())
    throw not_nvbandwidth(source, name + ": bandwidth_matrix is not a matrix");
  Rows rows;
  for (const auto& row : matrix) {
    if (!row.is_array())
      throw not_nvbandwidth(source, name + ": a bandwidth_matrix row is not a list");
    std::vector<std::optional<double>> r;
    for (const auto& v : row) {
      if (v.is_string() && v.get<std::string>() == "N/A") {
        r.emplace_back();
        continue;
      }
      bool ok = false;
      r.emplace_back(json_number(v, ok));
      if (!ok || !std::isfinite(*r.back()) || *r.back() < 0)
        throw not_nvbandwidth(source, name + ": row " + std::to_string(rows.size()) + ", column " +
                                          std::to_string(r.size() - 1) + ": " + v.dump() +
                                          " is not a figure (a decimal number, not negative, or "
                                          "\"N/A\")");
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// The matrices of one testcase with a result.
void read_testcase_matrices(const nlohmann::json& tc, const std::string& name,
                            const std::string& source, NvbandwidthOutput& out) {
  const Rows rows = matrix_rows(tc.at("bandwidth_matrix"), name, source);
  const std::string description = tc.value("bandwidth_description", std::string());
  const std::size_t columns = rows.front().size();
  // nvbandwidth appends the rows of each matrix a testcase reports to one list (v0.6+
  // bidirectional device-to-device: direction 1, direction 2, total): split them back.
  std::vector<std::string> parts = {""};
  if (has_gpu_rows(description) && rows.size() == 3 * columns && columns > 0) {
    const bool write = name.find("write") != std::string::npos;
    parts = write ? std::vector<std::string>{"_write1", "_write2", "_total"}
                  : std::vector<std::string>{"_read1", "_read2", "_total"};
  }
  const std::size_t per = rows.size() / parts.size();
  for (std::size_t p = 0; p < parts.size(); ++p) {
    NvbandwidthMatrix m;
    m.testcase = name;
    m.key = name + parts[p];
    m.description = description;
    m.unit = unit_of(description);
    m.cells.assign(rows.begin() + static_cast<long>(p * per),
                   rows.begin() + static_cast<long>((p + 1) * per));
    if (parts.size() == 1 && tc.contains("sum")) {
      bool ok = false;
      const double s = json_number(tc.at("sum"), ok);
      if (ok) m.sum = s;
    }
    out.matrices.push_back(std::move(m));
  }
}

// "testcases": a matrix per testcase with a result, the status of each without one.
void read_testcases(const nlohmann::json& root, const std::string& source, NvbandwidthOutput& out) {
  if (!root.contains("testcases") || !root.at("testcases").is_array())
    throw not_nvbandwidth(source, "no \"testcases\" list");
  for (const auto& tc : root.at("testcases")) {
    const std::string name = tc.value("name", std::string());
    const std::string status = tc.value("status", std::string());
    if (name.empty()) throw not_nvbandwidth(source, "a testcase without a name");
    if (!tc.contains("bandwidth_matrix")) {
      out.not_measured.emplace_back(name, status.empty() ? "no result" : status);
      continue;
    }
    read_testcase_matrices(tc, name, source, out);
  }
}

}  // namespace

NvbandwidthOutput parse_nvbandwidth_json(const std::string& text, const std::string& source) {
  NvbandwidthOutput out;
  out.format = "json";
  const nlohmann::json doc = parse_json_text(text, source);
  if (!doc.is_object() || !doc.contains("nvbandwidth") || !doc.at("nvbandwidth").is_object())
    throw not_nvbandwidth(source, "a JSON document without an \"nvbandwidth\" object");
  const auto& root = doc.at("nvbandwidth");
  const auto str = [&](const char* key) {
    return root.contains(key) && root.at(key).is_string() ? root.at(key).get<std::string>()
                                                          : std::string();
  };
  out.version = str("version");
  out.driver_version = str("Driver Version");
  if (root.contains("CUDA Runtime Version") && root.at("CUDA Runtime Version").is_number_integer())
    out.cuda_runtime_version = root.at("CUDA Runtime Version").get<int>();
  read_devices(root, out);
  read_testcases(root, source, out);
  // MiB, as on the command line: 0 (which no copy is) or beyond 10 TiB is a mangled field, and the
  // version's default is assumed instead (said in the notes).
  if (root.contains("bufferSize") && root.at("bufferSize").is_number_unsigned()) {
    const std::uint64_t mib = root.at("bufferSize").get<std::uint64_t>();
    if (mib >= 1 && mib <= kMaxBufferMib) out.buffer_bytes = mib << 20;
  }
  return out;
}

}  // namespace p2p::import
