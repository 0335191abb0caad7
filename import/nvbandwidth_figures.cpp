// nvbandwidth matrices -> p2pcheck figures, named by what they measure.
#include <algorithm>
#include <map>
#include <set>

#include "import/nvbandwidth.hpp"

namespace p2p::import {

namespace {

// Where p2pcheck measures the same thing: its case, and how a matrix cell (row, column) maps to
// p2pcheck's source and destination.
enum class Ends {
  kHostToGpu,    // row = host, column = GPU: host -> gpuC
  kGpuToHost,    // row = host, column = GPU: gpuC -> host
  kRowToCol,     // gpuR -> gpuC
  kColToRow,     // gpuC -> gpuR (the row GPU reads from the column GPU)
  kLocal,        // gpuC -> gpuC
  kGpuLoadsHost  // latency: gpuC loads from host memory
};

struct Meaning {
  const char* case_name;
  const char* part;
  Ends ends;
  const char* method;
  bool unordered_sum;  // a total of both directions: p2pcheck keeps one figure per unordered pair
};

const std::map<std::string, Meaning>& meanings() {
  static const std::map<std::string, Meaning> m = {
      {"host_to_device_memcpy_ce", {"h2d_ce", "", Ends::kHostToGpu, "copy_engine", false}},
      {"device_to_host_memcpy_ce", {"d2h_ce", "", Ends::kGpuToHost, "copy_engine", false}},
      {"host_to_device_bidirectional_memcpy_ce",
       {"h2d_d2h_ce", "dir", Ends::kHostToGpu, "copy_engine", false}},
      {"device_to_host_bidirectional_memcpy_ce",
       {"h2d_d2h_ce", "dir", Ends::kGpuToHost, "copy_engine", false}},
      {"host_to_device_memcpy_sm", {"h2d_sm", "", Ends::kHostToGpu, "sm", false}},
      {"device_to_host_memcpy_sm", {"d2h_sm", "", Ends::kGpuToHost, "sm", false}},
      {"host_to_device_bidirectional_memcpy_sm",
       {"h2d_d2h_sm", "dir", Ends::kHostToGpu, "sm", false}},
      {"device_to_host_bidirectional_memcpy_sm",
       {"h2d_d2h_sm", "dir", Ends::kGpuToHost, "sm", false}},
      {"device_to_device_memcpy_read_ce",
       {"ce_unidir_read", "", Ends::kColToRow, "copy_engine", false}},
      {"device_to_device_memcpy_write_ce",
       {"ce_unidir_write", "", Ends::kRowToCol, "copy_engine", false}},
      {"device_to_device_memcpy_read_sm", {"sm_read", "", Ends::kColToRow, "sm", false}},
      {"device_to_device_memcpy_write_sm", {"sm_write", "", Ends::kRowToCol, "sm", false}},
      // v0.6+: each direction of a bidirectional write (the first is the one timed under the
      // other).
      {"device_to_device_bidirectional_memcpy_write_ce_write1",
       {"ce_bidir", "dir", Ends::kRowToCol, "copy_engine", false}},
      {"device_to_device_bidirectional_memcpy_write_ce_total",
       {"ce_bidir", "sum", Ends::kRowToCol, "copy_engine", true}},
      {"device_to_device_bidirectional_memcpy_write_sm_write1",
       {"sm_bidir", "dir", Ends::kRowToCol, "sm", false}},
      {"device_to_device_bidirectional_memcpy_write_sm_total",
       {"sm_bidir", "sum", Ends::kRowToCol, "sm", true}},
      {"device_local_copy", {"device_local_ce", "", Ends::kLocal, "copy_engine", false}},
      {"host_device_latency_sm", {"latency_host", "", Ends::kGpuLoadsHost, "pointer_chase", false}},
      {"device_to_device_latency_sm",
       {"latency_peer", "", Ends::kRowToCol, "pointer_chase", false}},
  };
  return m;
}

// Testcases p2pcheck does not measure keep their key; their ends follow the matrix title.
Ends ends_from_description(const std::string& d) {
  const bool cpu_rows = d.find("CPU(row)") != std::string::npos;
  if (d.find("local GPU") != std::string::npos) return Ends::kLocal;
  if (cpu_rows)
    return d.find("<-") != std::string::npos && d.find("<->") == std::string::npos
               ? Ends::kGpuToHost
               : Ends::kHostToGpu;
  return d.find("<-") != std::string::npos && d.find("<->") == std::string::npos ? Ends::kColToRow
                                                                                 : Ends::kRowToCol;
}

std::uint64_t default_buffer_bytes(const std::string& version) {
  // 512 MiB from v0.7 on, 64 MiB before (common.h, defaultBufferSize).
  int minor = 0;
  if (version.size() > 3 && version[0] == 'v') minor = std::atoi(version.c_str() + 3);
  const bool v0 = version.rfind("v0.", 0) == 0;
  return (!v0 || minor >= 7 ? 512ull : 64ull) << 20;
}

}  // namespace

std::string cuda_version_text(int code) {
  if (code <= 0) return "";
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

std::string gpu_name(int index) { return "gpu" + std::to_string(index); }

ImportedFigures nvbandwidth_figures(const NvbandwidthOutput& out, const std::string& file,
                                    std::optional<std::uint64_t> buffer_bytes) {
  ImportedFigures f;
  f.file.file = file;
  f.file.tool = "nvbandwidth";
  f.file.version = out.version;
  f.file.format = out.format;
  f.hostname = out.hostname;
  f.nvidia_driver_version = out.driver_version;
  if (out.cuda_runtime_version)
    f.cuda_driver_version = cuda_version_text(*out.cuda_runtime_version);
  for (std::size_t i = 0; i < out.devices.size(); ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = static_cast<int>(i);
    g.name = out.devices[i].substr(0, out.devices[i].find(" ("));
    f.gpus.push_back(g);
  }
  if (!out.process_hosts.empty()) {
    std::vector<std::string> hosts;
    for (const auto& h : out.process_hosts)
      if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
    std::string names;
    for (const auto& h : hosts) names += (names.empty() ? "" : ", ") + h;
    f.file.notes.push_back("multinode run: gpuN is MPI process N (" +
                           std::to_string(out.process_hosts.size()) + " processes on " +
                           std::to_string(hosts.size()) + " hosts: " + names + ")");
  }
  std::uint64_t bytes = 0;
  if (buffer_bytes) {
    bytes = *buffer_bytes;
  } else if (out.buffer_bytes) {
    bytes = *out.buffer_bytes;
  } else {
    bytes = default_buffer_bytes(out.version);
    f.file.notes.push_back(
        "copy size " + std::to_string(bytes >> 20) + " MiB: nvbandwidth " +
        (out.version.empty() ? "" : out.version + " ") +
        "prints no buffer size, so its default is assumed (give --buffer-size if the run used -b)");
  }
  std::set<std::string> mappings;
  for (const auto& m : out.matrices) {
    const auto it = meanings().find(m.key);
    const bool mapped = it != meanings().end();
    const std::string case_name = mapped ? it->second.case_name : m.key;
    const Ends ends = mapped ? it->second.ends : ends_from_description(m.description);
    mappings.insert(m.key + (mapped ? " -> " + case_name
                                    : " (no p2pcheck counterpart: kept as " + m.key + ")"));
    for (std::size_t r = 0; r < m.cells.size(); ++r) {
      for (std::size_t c = 0; c < m.cells[r].size(); ++c) {
        const auto& v = m.cells[r][c];
        if (!v) continue;  // N/A: the pair was not measured (no peer access): nothing to compare
        std::string src, dst;
        switch (ends) {
          case Ends::kHostToGpu:
            src = "host";
            dst = gpu_name(static_cast<int>(c));
            break;
          case Ends::kGpuToHost:
            src = gpu_name(static_cast<int>(c));
            dst = "host";
            break;
          case Ends::kRowToCol:
            src = gpu_name(static_cast<int>(r));
            dst = gpu_name(static_cast<int>(c));
            break;
          case Ends::kColToRow:
            src = gpu_name(static_cast<int>(c));
            dst = gpu_name(static_cast<int>(r));
            break;
          case Ends::kLocal: src = dst = gpu_name(static_cast<int>(c)); break;
          case Ends::kGpuLoadsHost:
            src = gpu_name(static_cast<int>(c));
            dst = "host";
            break;
        }
        if (mapped && it->second.unordered_sum && r > c) continue;
        const doc::FigureSource source{"nvbandwidth", out.version, m.key, m.unit};
        if (m.unit == "ns") {
          doc::LatencyResult l;
          l.case_name = case_name;
          l.src = src;
          l.dst = dst;
          l.median_ns = *v;
          l.samples_ns = {*v};
          l.p2p = (src != "host" && dst != "host") ? std::optional<bool>(true) : std::nullopt;
          l.source = source;
          f.latency.push_back(std::move(l));
          continue;
        }
        doc::BandwidthResult b;
        b.case_name = case_name;
        b.src = src;
        b.dst = dst;
        b.part = mapped ? it->second.part : "";
        b.method = mapped ? it->second.method
                          : (m.key.find("_sm") != std::string::npos ? "sm" : "copy_engine");
        b.bytes = bytes;
        b.median_gbps = *v;
        b.samples_gbps = {*v};
        const bool peer = src.rfind("gpu", 0) == 0 && dst.rfind("gpu", 0) == 0 && src != dst;
        b.p2p = peer ? std::optional<bool>(true) : std::nullopt;
        b.source = source;
        f.bandwidth.push_back(std::move(b));
      }
    }
  }
  for (const auto& [testcase, status] : out.not_measured)
    f.file.notes.push_back((testcase.empty() ? std::string("a testcase") : testcase) + ": " +
                           status);
  f.file.mappings.assign(mappings.begin(), mappings.end());
  f.file.figures = static_cast<int>(f.bandwidth.size() + f.latency.size());
  return f;
}

}  // namespace p2p::import
