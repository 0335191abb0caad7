#include "infer/results_text.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "common/byte_size.hpp"
#include "infer/groups.hpp"
#include "infer/plan_text.hpp"

namespace p2p::infer {

namespace {

std::string fixed(double v, int digits = 1) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string fixed_or_dash(const std::optional<double>& v, int digits = 1) {
  return v ? fixed(*v, digits) : "-";
}

std::string unit_of(Phase p) { return p == Phase::kDecode ? "us/token" : "us/prefill"; }

void format_ipc(std::ostringstream& out, const GroupResult& g) {
  if (g.ipc.empty()) return;
  int ok = 0;
  for (const IpcPairResult& p : g.ipc) ok += p.status == doc::IpcStatus::kOk;
  out << "  CUDA IPC check: " << ok << "/" << g.ipc.size() << " ordered pairs passed\n";
  for (const IpcPairResult& p : g.ipc) {
    if (p.status == doc::IpcStatus::kOk) continue;
    out << "    rank " << p.writer_rank << " (GPU " << p.writer_gpu << ") -> rank " << p.owner_rank
        << " (GPU " << p.owner_gpu << "): " << to_string(p.status) << ": " << p.detail << "\n";
  }
}

void format_table(std::ostringstream& out, const GroupResult& g) {
  out << "  " << std::left << std::setw(15) << "message" << std::right << std::setw(9) << "bytes"
      << std::setw(9) << "p50 us" << std::setw(9) << "p90 us" << std::setw(9) << "p99 us"
      << std::setw(9) << "max us" << std::setw(7) << "spread" << std::setw(8) << "busbw"
      << std::setw(11) << "cost/step";
  if (g.p2p_off) out << std::setw(13) << "P2P-off p50" << std::setw(11) << "cost/step";
  out << "\n";
  for (std::size_t i = 0; i < g.p2p_on.messages.size(); ++i) {
    const MessageResult& m = g.p2p_on.messages[i];
    out << "  " << std::left << std::setw(15) << m.message << std::right << std::setw(9)
        << format_bytes(m.bytes, ByteStyle::kSpaced);
    if (m.latency) {
      out << std::setw(9) << fixed(m.latency->p50_us) << std::setw(9) << fixed(m.latency->p90_us)
          << std::setw(9) << fixed(m.latency->p99_us) << std::setw(9) << fixed(m.latency->max_us)
          << std::setw(7) << fixed(m.latency->spread, 2) << std::setw(8)
          << fixed_or_dash(m.busbw_gbps) << std::setw(11) << fixed_or_dash(m.step_us);
    } else {
      out << "  " << to_string(m.status) << (m.detail.empty() ? "" : ": " + m.detail);
    }
    if (g.p2p_off && m.latency) {
      const MessageResult* off = find_message(*g.p2p_off, m.message);
      if (off != nullptr && off->latency) {
        out << std::setw(13) << fixed(off->latency->p50_us) << std::setw(11)
            << fixed_or_dash(off->step_us);
      } else {
        out << "  P2P off: "
            << (off == nullptr
                    ? "not run"
                    : to_string(off->status) + (off->detail.empty() ? "" : ": " + off->detail));
      }
    }
    out << "\n";
  }
  for (const std::string& p : g.p2p_on.problems) out << "  problem: " << p << "\n";
  if (g.p2p_off) {
    for (const std::string& p : g.p2p_off->problems) out << "  problem (P2P off): " << p << "\n";
  }
}

const Message* find_plan_message(const InferPlan& plan, const std::string& name) {
  for (const Message& m : plan.messages) {
    if (message_name(m) == name) return &m;
  }
  return nullptr;
}

}  // namespace

std::string format_ranking_line(const InferDocument& d, const TpRanking& r) {
  std::ostringstream out;
  out << "TP=" << r.tp << ":";
  if (r.groups.empty()) {
    out << " no group (" << r.note << ")";
    return out.str();
  }
  const Message* m = find_plan_message(d.plan, r.message);
  const std::string unit = m != nullptr ? unit_of(m->phase) : "us/step";
  bool first = true;
  for (const RankedGroup& rg : r.groups) {
    const GroupResult& g = d.groups.at(rg.group);
    out << (first ? " " : "; ") << "GPUs " << format_gpu_list(g.gpus) << " (" << g.signature << "; "
        << g.description << ") " << (rg.step_us ? fixed(*rg.step_us) + " " + unit : "not measured");
    if (rg.p2p_off_step_us) out << " [P2P off " << fixed(*rg.p2p_off_step_us) << "]";
    first = false;
  }
  return out.str();
}

std::string logical_note(const InferDocument& d) {
  if (d.logical_gpus <= 0) return "";
  const std::string on = format_id_list(d.devices);
  return "LOGICAL RUN: up to " + std::to_string(d.logical_gpus) +
         " rank processes shared CUDA device" + (d.devices.size() > 1 ? "s " : " ") + on +
         ", each its own NCCL host (network transport): the figures measure the tool, not the host's links";
}

std::string format_results(const InferDocument& d) {
  std::ostringstream out;
  out << "# p2pcheck infer: " << describe_model(d.plan.model) << "\n";
  if (const std::string note = logical_note(d); !note.empty()) out << "# " << note << "\n";
  out << "# " << d.measure.calls << " calls per message in CUDA graphs of "
      << d.measure.calls_per_graph << "; cost/step = " << d.plan.calls_per_step
      << " calls x p50 (decode: per generated token; prefill: per prompt pass); spread = p99/p50; busbw GB/s at p50"
      << (d.nccl_version.empty() ? "" : "; NCCL " + d.nccl_version) << "\n";
  for (const GroupResult& g : d.groups) {
    out << "\nTP=" << g.tp << " GPUs " << format_gpu_list(g.gpus) << " (" << g.signature << "; "
        << g.description << ")\n";
    format_ipc(out, g);
    format_table(out, g);
  }
  out << "\n# Ranking by " << d.ranking_message << " (P2P on), best first\n";
  for (const TpRanking& r : d.rankings) {
    out << format_ranking_line(d, r) << "\n";
    const std::optional<RankedGroup> best = recommended(r);
    if (best)
      out << "  recommended: GPUs " << format_gpu_list(d.groups.at(best->group).gpus) << "\n";
  }
  if (d.budget_us_per_token) {
    out << "\n# Budget --budget-us-per-token " << *d.budget_us_per_token
        << " (recommended group per TP size)\n";
    for (const BudgetVerdict& v : d.verdicts) {
      out << (v.pass ? "PASS" : "FAIL") << " TP=" << v.tp << " " << v.message;
      if (!v.gpus.empty()) out << " GPUs " << format_gpu_list(v.gpus);
      out << ": " << v.detail << "\n";
    }
  }
  return out.str();
}

}  // namespace p2p::infer
