#include "import/simple_p2p.hpp"

#include <algorithm>
#include <regex>

#include "common/error.hpp"
#include "common/text_lines.hpp"
#include "document/case_names.hpp"

namespace p2p::import {
namespace {

// More GPUs than any host has: an index past it is no line of the sample (and would size the
// access matrix by the input's say-so).
constexpr int kMaxGpuIndex = 255;

InputError not_simple_p2p(const std::string& source, const std::string& what) {
  return InputError(source + ": not simpleP2P output: " + what);
}

void set_device(SimpleP2pOutput& out, int index, const std::string& name) {
  if (index < 0 || index > kMaxGpuIndex) return;
  if (out.devices.size() <= static_cast<std::size_t>(index)) out.devices.resize(index + 1);
  if (out.devices[index].empty()) out.devices[index] = trim(name);
}

void set_access(SimpleP2pOutput& out, int a, int b, bool yes) {
  if (a < 0 || b < 0 || a > kMaxGpuIndex || b > kMaxGpuIndex) return;
  const std::size_t n = static_cast<std::size_t>(std::max(a, b)) + 1;
  if (out.access.size() < n) out.access.resize(n);
  for (auto& row : out.access)
    if (row.size() < std::max(n, out.access.size())) row.resize(std::max(n, out.access.size()), -1);
  out.access[a][b] = yes ? 1 : 0;
}

}  // namespace

bool looks_like_simple_p2p(const std::string& text) {
  return text.find("simpleP2P") != std::string::npos ||
         text.find("> Peer access from ") != std::string::npos ||
         text.find("cudaMemcpyPeer / cudaMemcpy between") != std::string::npos;
}

namespace {

// "cudaMemcpyPeer / cudaMemcpy between GPU0 and GPU1: 25.62GB/s": a rate that is no bandwidth
// (negative, absurd) is refused, not dropped while the rest reads as a pass.
void read_rate(const std::smatch& m, const std::string& source, SimpleP2pOutput& out) {
  out.copy_a = std::stoi(m[1].str().substr(0, 4));
  out.copy_b = std::stoi(m[2].str().substr(0, 4));
  const auto v = parse_number(m[3]);
  if (!v || *v < 0 || *v >= 1e6)
    throw InputError(source + ": not simpleP2P output: the cudaMemcpyPeer rate '" + m[3].str() +
                     "' is no bandwidth");
  out.memcpy_gbps = *v;
}

}  // namespace

SimpleP2pOutput parse_simple_p2p(const std::string& text, const std::string& source) {
  // "> Peer access from NVIDIA GeForce RTX 4090 (GPU0) -> NVIDIA GeForce RTX 4090 (GPU1) : Yes"
  static const std::regex kAccess(
      R"((?:>\s*)?Peer access from (.*) \(GPU(\d+)\) -> (.*) \(GPU(\d+)\)\s*:\s*(Yes|No))");
  // "> GPU0 = "Tesla K20m" IS  capable of Peer-to-Peer (P2P)" (older samples). A paste's
  // normaliser may have taken the leading "> " for a quote marker: it is optional.
  static const std::regex kCapable(R"re((?:>\s*)?GPU(\d+) = "([^"]*)")re");
  static const std::regex kRate(
      R"(cudaMemcpyPeer / cudaMemcpy between GPU(\d+) and GPU(\d+):\s*(-?[0-9.eE+]+)\s*GB/s)");
  static const std::regex kBuffers(R"(Allocating buffers \((\d+)\s*MB)");
  static const std::regex kEnabling(R"(Enabling peer access between GPU(\d+) and GPU(\d+))");
  SimpleP2pOutput out;
  bool seen = false;
  for (const auto& raw : clean_lines(text)) {
    const std::string t = trim(raw);
    // The sample's lines are short; a longer one is no line of it (and std::regex backtracks).
    if (t.size() > 400) continue;
    std::smatch m;
    if (t.find("Peer access from") != std::string::npos && std::regex_search(t, m, kAccess)) {
      const int a = std::stoi(m[2].str().substr(0, 4)), b = std::stoi(m[4].str().substr(0, 4));
      set_device(out, a, m[1]);
      set_device(out, b, m[3]);
      set_access(out, a, b, m[5] == "Yes");
      seen = true;
    } else if (t.find(" = \"") != std::string::npos && std::regex_search(t, m, kCapable)) {
      set_device(out, std::stoi(m[1].str().substr(0, 4)), m[2]);
    } else if (t.find("cudaMemcpyPeer") != std::string::npos && std::regex_search(t, m, kRate)) {
      read_rate(m, source, out);
      seen = true;
    } else if (t.rfind("Allocating buffers", 0) == 0 && std::regex_search(t, m, kBuffers)) {
      out.buffer_mib = std::stoi(m[1].str().substr(0, 6));
    } else if (t.rfind("CUDA error at ", 0) == 0 && out.cuda_error.empty()) {
      // checkCudaErrors' line; the file path before the line number says nothing of the host.
      const auto code = t.find(" code=");
      out.cuda_error = code == std::string::npos ? t : trim(t.substr(code + 1));
      seen = true;
    } else if (t.rfind("Enabling peer access between", 0) == 0 &&
               std::regex_search(t, m, kEnabling)) {
      out.enabling_a = std::stoi(m[1].str().substr(0, 4));
      out.enabling_b = std::stoi(m[2].str().substr(0, 4));
    } else if (t.rfind("Verification error @ element", 0) == 0) {
      ++out.verification_errors;
    } else if (t == "Test passed") {
      out.passed = true;
    } else if (t.rfind("Test failed", 0) == 0) {
      out.passed = false;
    } else if (t.find("waiving test") != std::string::npos &&
               t.find("Peer to Peer access is not available") != std::string::npos) {
      out.waived = true;
      seen = true;
    }
  }
  if (!seen)
    throw not_simple_p2p(source, "no \"> Peer access from\" line, cudaMemcpyPeer rate or waiver");
  return out;
}

namespace {

void add_gpus_and_access(const SimpleP2pOutput& out, ImportedFigures& f) {
  const std::size_t gpus = std::max(out.devices.size(), out.access.size());
  for (std::size_t i = 0; i < gpus; ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = static_cast<int>(i);
    if (i < out.devices.size()) g.name = out.devices[i];
    f.gpus.push_back(g);
  }
  // Every pair printed, else nothing: a partial matrix would read as "no access".
  bool complete = out.access.size() == gpus && gpus >= 2;
  for (std::size_t a = 0; a < out.access.size() && complete; ++a)
    for (std::size_t b = 0; b < out.access[a].size(); ++b)
      if (a != b && out.access[a][b] < 0) complete = false;
  if (!complete) return;
  for (std::size_t a = 0; a < gpus; ++a) {
    f.p2p_access.emplace_back();
    for (std::size_t b = 0; b < gpus; ++b)
      f.p2p_access.back().push_back(a != b && out.access[a][b] == 1);
  }
}

doc::BandwidthResult copy_figure(const SimpleP2pOutput& out, int from, int to) {
  doc::BandwidthResult b;
  b.case_name = doc::cases::kCeUnidirWrite;
  b.src = gpu_name(from);
  b.dst = gpu_name(to);
  b.method = "copy_engine";
  b.bytes = static_cast<std::uint64_t>(out.buffer_mib.value_or(64)) << 20;
  return b;
}

// The rate, failed where the kernel's data did not verify.
void add_rate(const SimpleP2pOutput& out, ImportedFigures& f) {
  doc::BandwidthResult b = copy_figure(out, *out.copy_a, *out.copy_b);
  b.issued_by = b.src;
  b.median_gbps = *out.memcpy_gbps;
  b.samples_gbps = {*out.memcpy_gbps};
  const auto a = static_cast<std::size_t>(*out.copy_a), c = static_cast<std::size_t>(*out.copy_b);
  if (a < out.access.size() && c < out.access[a].size() && out.access[a][c] >= 0)
    b.p2p = out.access[a][c] == 1;
  b.source =
      doc::FigureSource{"simpleP2P", "",
                        "cudaMemcpyPeer / cudaMemcpy between GPU" + std::to_string(*out.copy_a) +
                            " and GPU" + std::to_string(*out.copy_b),
                        "GB/s"};
  if (out.passed == false || out.verification_errors > 0) {
    b.status = doc::FigureStatus::kFailed;
    b.bad_words = static_cast<std::uint64_t>(out.verification_errors);
    b.detail = "simpleP2P: the kernel's data did not verify (" +
               std::to_string(out.verification_errors) + " \"Verification error\" line(s)" +
               (out.passed == false ? ", \"Test failed!\")" : ")");
  }
  f.bandwidth.push_back(b);
  f.file.mappings.push_back("cudaMemcpyPeer / cudaMemcpy -> ce_unidir_write");
  f.file.notes.push_back(
      "the rate is of 64 MB copies that alternate direction between the two GPUs, counted as " +
      b.src + "->" + b.dst);
  if (!out.buffer_mib) f.file.notes.push_back("assumed: 64 MB copies (the sample's default)");
}

// The sample stopped at a CUDA call before it measured: the pair it was enabling (or the first
// two GPUs) gets the figure, in error, with the call's own words.
void add_cuda_error(const SimpleP2pOutput& out, ImportedFigures& f) {
  doc::BandwidthResult b = copy_figure(out, out.enabling_a.value_or(0), out.enabling_b.value_or(1));
  b.status = doc::FigureStatus::kError;
  b.detail = "simpleP2P stopped before it copied: " + out.cuda_error;
  b.source = doc::FigureSource{"simpleP2P", "", "CUDA error", ""};
  f.bandwidth.push_back(b);
  f.file.mappings.push_back("CUDA error -> ce_unidir_write " + b.src + "->" + b.dst + ", error");
}

}  // namespace

ImportedFigures simple_p2p_figures(const SimpleP2pOutput& out, const std::string& file) {
  ImportedFigures f;
  f.file.file = file;
  f.file.tool = "simpleP2P";
  f.file.format = "text";
  add_gpus_and_access(out, f);
  if (out.waived) f.file.notes.push_back("simpleP2P waived its test: no GPU pair has peer access");
  if (out.memcpy_gbps && out.copy_a && out.copy_b) add_rate(out, f);
  if (!out.cuda_error.empty() && !out.memcpy_gbps) add_cuda_error(out, f);
  if (!out.passed)
    f.file.notes.push_back("the output ends before \"Test passed\" or \"Test failed\"");
  f.file.figures = static_cast<int>(f.bandwidth.size());
  return f;
}

}  // namespace p2p::import
