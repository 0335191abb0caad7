#include "doctor/rules/rules.hpp"

#include "common/enum_names.hpp"
#include "common/exit_codes.hpp"
#include "doctor/knowledge/documented_causes.hpp"
#include "doctor/vfio_guest.hpp"

namespace p2p::doctor {

namespace {

constexpr EnumNames<VerdictState, 8> kVerdictStates{{{VerdictState::kHealthy, "healthy"},
                                                     {VerdictState::kDegraded, "degraded"},
                                                     {VerdictState::kPartial, "partial"},
                                                     {VerdictState::kBroken, "broken"},
                                                     {VerdictState::kNoDriver, "no_driver"},
                                                     {VerdictState::kInconclusive, "inconclusive"},
                                                     {VerdictState::kUnhealthy, "unhealthy"},
                                                     {VerdictState::kAtRisk, "at_risk"}}};

}  // namespace

const char* to_string(VerdictState s) { return name_in(kVerdictStates, s); }

std::vector<Finding> judge(const Facts& f) {
  std::vector<Finding> out;
  rules::driver(f, out);
  rules::userspace(f, out);
  rules::access(f, out);
  rules::p2p(f, out);
  rules::vfio(f, out);            // GPUDirect cliques in a VFIO guest (rules_vfio.cpp)
  rules::nccl_topo_file(f, out);  // the guest's NCCL_TOPO_FILE (nccl_topo_file.cpp)
  rules::pcie(f, out);
  rules::gpu_state(f, out);
  rules::health(f, out);
  // NVIDIA's documented codes and states that the facts show (documented_causes.hpp).
  for (auto& x : documented_findings(f)) out.push_back(std::move(x));
  return out;
}

int exit_code_of(const std::vector<Finding>& findings) {
  for (const auto& f : findings)
    if (f.status == Status::kFail) return kExitFailed;
  return kExitOk;
}

int exit_code_of(const std::vector<Finding>& findings, const Verdict& verdict) {
  if (verdict.state == VerdictState::kNoDriver || verdict.state == VerdictState::kBroken)
    return kExitNoGpu;
  return exit_code_of(findings);
}

nlohmann::json to_json(const Finding& f) {
  return {{"id", f.id},
          {"status", to_string(f.status)},
          {"summary", f.summary},
          {"evidence", f.evidence},
          {"hint", f.hint}};
}

nlohmann::json to_json(const Cause& c) {
  return {{"id", c.id},
          {"title", c.title},
          {"score", c.score},
          {"confidence", c.confidence},
          {"evidence", c.evidence},
          {"fix", c.fix},
          {"gpus", c.gpus}};
}

nlohmann::json to_json(const Verdict& v) {
  nlohmann::json causes = nlohmann::json::array();
  for (const auto& c : v.causes) causes.push_back(to_json(c));
  return {{"state", to_string(v.state)},
          {"headline", v.headline},
          {"causes", causes},
          {"ruled_out", v.ruled_out},
          {"unverified", v.unverified},
          {"unusable_gpus", v.unusable_gpus},
          {"failing_gpus", v.failing_gpus}};
}

}  // namespace p2p::doctor
