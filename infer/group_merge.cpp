#include "infer/group_merge.hpp"

namespace p2p::infer {

std::vector<nccl::MergeCase> merge_plan(const std::vector<Message>& messages, int nranks) {
  std::vector<int> everyone;
  for (int r = 0; r < nranks; ++r) everyone.push_back(r);
  std::vector<nccl::MergeCase> out;
  for (const Message& m : messages) out.push_back({message_name(m), everyone});
  return out;
}

GroupRun group_run_from(const std::vector<Message>& messages, int tp, int calls_per_step,
                        const nccl::MergedRun& merged, bool p2p_disabled) {
  GroupRun run;
  run.p2p_disabled = p2p_disabled;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    const nccl::MergedCase* found = nullptr;
    for (const nccl::MergedCase& c : merged.cases) {
      if (c.index == static_cast<int>(i)) found = &c;
    }
    MessageResult r;
    if (found != nullptr && found->status == doc::CollectiveStatus::kOk &&
        !found->sample_us.empty()) {
      r = measured_message(m, tp, calls_per_step, found->sample_us);
    } else {
      r.message = message_name(m);
      r.phase = m.phase;
      r.tokens = m.tokens;
      r.bytes = m.bytes;
      r.status =
          found != nullptr ? doc::message_status_of(found->status) : doc::MessageStatus::kNotRun;
      r.detail =
          found != nullptr ? found->detail : "no rank reported it (the run stopped before it)";
      if (r.status == doc::MessageStatus::kOk) {  // every rank said ok but not every one had times
        r.status = doc::MessageStatus::kError;
        r.detail = "not every rank reported its call times";
      }
    }
    run.messages.push_back(std::move(r));
  }
  // The merge names every rank that did not end "done" (died, killed, hung, failed, stopped) and
  // every unreadable line there.
  run.problems = merged.warnings;
  return run;
}

}  // namespace p2p::infer
