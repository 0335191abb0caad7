#include "infer/plan_text.hpp"

#include <iomanip>
#include <sstream>

#include "common/byte_size.hpp"
#include "document/data_type.hpp"

namespace p2p::infer {

std::string describe_model(const ModelShape& m) {
  std::ostringstream out;
  out << (m.name.empty() ? "model" : m.name) << " (" << m.source << "): hidden " << m.hidden << " ("
      << m.hidden_key << "), " << m.layers << " layers (" << m.layers_key << "), "
      << doc::to_string(m.dtype) << " (" << m.dtype_key << ")";
  return out.str();
}

std::string format_plan(const InferPlan& plan, const std::vector<TpGroups>& groups,
                        const std::string& topology_source, const std::string& topology_note) {
  std::ostringstream out;
  out << "# p2pcheck infer: plan\n";
  out << "# " << describe_model(plan.model) << "\n";
  out << "# all-reduces per step: " << plan.calls_per_step
      << " (2 per layer: after attention, after the MLP); per decode step = per generated token\n";
  out << std::left << std::setw(16) << "message" << std::right << std::setw(9) << "tokens"
      << std::setw(12) << "bytes" << std::setw(12) << "calls/step"
      << "\n";
  for (const Message& m : plan.messages) {
    out << std::left << std::setw(16) << message_name(m) << std::right << std::setw(9) << m.tokens
        << std::setw(12) << format_bytes(m.bytes, ByteStyle::kSpaced) << std::setw(12)
        << plan.calls_per_step << "\n";
  }
  out << "# GPU groups (" << topology_source << ")\n";
  if (!topology_note.empty()) {
    out << "#   " << topology_note << "\n";
    return out.str();
  }
  for (const TpGroups& tg : groups) {
    out << "TP=" << tg.tp << ":";
    if (tg.groups.empty()) {
      out << " none (" << tg.note << ")\n";
      continue;
    }
    out << " " << tg.groups.size() << " group" << (tg.groups.size() == 1 ? "" : "s")
        << " to measure\n";
    for (const GpuGroup& g : tg.groups) {
      // A column at least as wide as its widest cell; the space after each keeps long cells
      // ("NV12 x1 + PXB x2 + PHB x3") from running into the next.
      out << "  GPUs " << std::left << std::setw(13) << format_gpu_list(g.gpus) << " "
          << std::setw(21) << g.signature << " " << g.description;
      if (g.alike > 1) out << " (stands for " << g.alike << " groups)";
      out << "\n";
    }
    if (!tg.note.empty()) out << "  (" << tg.note << ")\n";
  }
  return out.str();
}

}  // namespace p2p::infer
