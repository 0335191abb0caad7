#include "infer/ranking.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace p2p::infer {

std::string ranking_message(const InferPlan& plan, const std::optional<std::uint64_t>& rank_batch) {
  if (rank_batch) {
    for (const Message& m : plan.messages) {
      if (m.phase == Phase::kDecode && m.tokens == *rank_batch) return message_name(m);
    }
    throw InputError("--rank-batch: " + std::to_string(*rank_batch) +
                     " is not one of the --batch sizes");
  }
  const Message* pick = nullptr;
  for (const Message& m : plan.messages) {  // decode first, ascending; prefill after, ascending
    if (m.phase == Phase::kDecode) pick = &m;
  }
  if (pick == nullptr) pick = &plan.messages.back();
  return message_name(*pick);
}

std::vector<TpRanking> rank_groups(const InferPlan& plan, const std::vector<GroupResult>& groups,
                                   const std::string& message, int usable_gpus) {
  std::vector<TpRanking> out;
  for (int tp : plan.tp_sizes) {
    TpRanking r;
    r.tp = tp;
    r.message = message;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      if (groups[i].tp != tp) continue;
      RankedGroup g;
      g.group = i;
      const MessageResult* on = find_message(groups[i].p2p_on, message);
      if (on != nullptr && on->status == doc::MessageStatus::kOk) g.step_us = on->step_us;
      if (groups[i].p2p_off) {
        const MessageResult* off = find_message(*groups[i].p2p_off, message);
        if (off != nullptr && off->status == doc::MessageStatus::kOk)
          g.p2p_off_step_us = off->step_us;
      }
      r.groups.push_back(g);
    }
    // Measured groups by cost; the rest keep their (topology) order behind them.
    std::stable_sort(r.groups.begin(), r.groups.end(),
                     [](const RankedGroup& a, const RankedGroup& b) {
                       if (a.step_us.has_value() != b.step_us.has_value())
                         return a.step_us.has_value();
                       return a.step_us && *a.step_us < *b.step_us;
                     });
    if (r.groups.empty()) {
      r.note = tp > usable_gpus ? "needs " + std::to_string(tp) + " GPUs, " +
                                      std::to_string(usable_gpus) + " usable"
                                : "no group measured";
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<RankedGroup> recommended(const TpRanking& r) {
  if (r.groups.empty() || !r.groups.front().step_us) return std::nullopt;
  return r.groups.front();
}

}  // namespace p2p::infer
