// Candidate root causes and their weights. A weight says how directly the evidence points at the
// cause: a kernel-log line naming the failure outweighs a setting that merely allows it, and a
// driver-level failure outweighs a P2P limitation (nothing P2P matters while cuInit fails).
// Each family of causes has its file (verdict_*_causes.cpp, verdict_health.cpp, verdict_vfio.cpp);
// this one calls them in order and holds what they share (verdict_cause_support.hpp).
#include <algorithm>
#include <utility>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/knowledge/documented_causes.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/verdict/verdict_cause_support.hpp"
#include "doctor/verdict/verdict_health.hpp"

namespace p2p::doctor {

namespace {

std::string confidence_of(int score) {
  if (score >= 10) return "confirmed";
  if (score >= 5) return "likely";
  return "possible";
}

// A failed cuInit that neither a rule family nor a documented row explains: named with the code's
// usual causes.
void cuinit_cause(const Facts& f, std::vector<Cause>& out) {
  const auto init = cuinit_result(f);
  const bool strong =
      std::any_of(out.begin(), out.end(), [](const Cause& x) { return x.score >= 3; });
  if (init && *init != 0 && !strong)
    out.push_back(make_cause(
        "cuinit", "cuInit failed: " + cu_result_name(*init), 2, {cu_init_explanation(*init)},
        "see the failed checks above; the explanation lists the usual causes of this code"));
}

}  // namespace

bool check_failed(const std::vector<Finding>& all, const std::string& id) {
  const Finding* f = find_finding(all, id);
  return f != nullptr && f->status == Status::kFail;
}

bool check_warned(const std::vector<Finding>& all, const std::string& id) {
  const Finding* f = find_finding(all, id);
  return f != nullptr && f->status == Status::kWarn;
}

void from_finding(std::vector<Cause>& out, const std::vector<Finding>& all, const std::string& id,
                  std::string cause_id, std::string title, int score,
                  std::vector<std::string> affected) {
  const Finding* f = find_finding(all, id);
  if (f == nullptr) return;
  std::vector<std::string> ev{f->summary};
  ev.insert(ev.end(), f->evidence.begin(), f->evidence.end());
  out.push_back(make_cause(std::move(cause_id), std::move(title), score, ev, f->hint));
  out.back().gpus = std::move(affected);
}

std::vector<std::string> log_evidence(const std::vector<std::string>& lines) {
  std::vector<std::string> ev;
  for (const auto& l : lines) ev.push_back("kernel log: " + l);
  return ev;
}

Cause make_cause(std::string id, std::string title, int score, std::vector<std::string> evidence,
                 std::string fix, std::vector<std::string> gpus) {
  return Cause{std::move(id),       std::move(title), score,          confidence_of(score),
               std::move(evidence), std::move(fix),   std::move(gpus)};
}

const Finding* find_finding(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings)
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<Cause> candidate_causes(const Facts& f, const std::vector<Finding>& all) {
  std::vector<Cause> out;
  driver_load_causes(f, all, out);
  gsp_uvm_causes(f, all, out);
  runtime_causes(f, all, out);
  p2p_causes(f, all, out);
  health_causes(f, all, out);
  documented_causes(f, out);
  cuinit_cause(f, out);
  return out;
}

}  // namespace p2p::doctor
