#include "report/bench_text.hpp"

#include <sstream>

#include "report/bench_matrix.hpp"

namespace p2p::report {
namespace {

std::string header(const doc::BenchDocument& d) {
  std::ostringstream os;
  os << "p2pcheck bench on " << (d.hostname.empty() ? "this host" : d.hostname) << ": driver "
     << (d.nvidia_driver_version.empty() ? "?" : d.nvidia_driver_version) << ", CUDA driver "
     << d.cuda_driver_version << ", runtime " << d.cuda_runtime_version << "; " << d.samples
     << " samples (+" << d.warmup_samples << " warm-up) per figure, median shown\n";
  if (const std::string note = doc::logical_gpus_note(d); !note.empty()) os << "  " << note << "\n";
  for (const auto& g : d.gpus) {
    os << "  " << doc::gpu_label(g)
       << (g.logical_gpu ? "  device " + std::to_string(g.cuda_ordinal) : "") << "  "
       << g.pci_bus_id << "  " << g.name << "  " << (g.link.empty() ? "link unknown" : g.link)
       << "  NUMA " << g.numa_node << "  CPUs " << (g.cpuset.empty() ? "?" : g.cpuset) << "\n";
  }
  if (d.gpus.size() > 1) {
    os << "  P2P (cudaDeviceCanAccessPeer, row -> column):\n";
    for (std::size_t i = 0; i < d.gpus.size(); ++i) {
      os << "    " << doc::gpu_label(d.gpus[i]);
      for (std::size_t j = 0; j < d.gpus.size(); ++j) {
        os << (i == j ? "    X" : d.p2p_access[i][j] ? "  yes" : "   no");
      }
      os << "\n";
    }
  }
  os << "  gate: " << (d.gate.decision ? topo::to_string(*d.gate.decision) : "not run")
     << (d.gate.detail.empty() ? "" : " (" + d.gate.detail + ")")
     << (d.skip_gate ? "; --skip-gate given" : "") << "\n";
  for (const auto& w : d.warnings) os << "  warning: " << w << "\n";
  if (!d.interrupted.empty()) os << "  INTERRUPTED: " << d.interrupted << "\n";
  return os.str();
}

}  // namespace

std::string render_text_tables(const doc::BenchDocument& d) {
  std::ostringstream os;
  os << header(d) << "\n";
  for (const auto& m : bandwidth_matrices(d.bandwidth, true)) os << render(m) << "\n";
  for (const auto& m : sweep_tables(d.bandwidth)) os << render(m) << "\n";
  for (const auto& m : latency_matrices(d.latency)) os << render(m) << "\n";
  const doc::FigureCounts c = doc::count_figures(d);
  os << "summary: " << c.ok << " figures verified, " << c.failed << " FAILED verification, "
     << c.waived << " waived, " << c.errors << " errors\n";
  os << doc::describe_resources(d);
  return os.str();
}

}  // namespace p2p::report
