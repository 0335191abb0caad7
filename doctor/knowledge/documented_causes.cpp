// Matching the documented tables against a host's facts, and the causes that follow.
#include "doctor/knowledge/documented_causes.hpp"

#include <algorithm>
#include <set>

#include "doctor/rules/rules_util.hpp"
#include "doctor/verdict/verdict.hpp"

namespace p2p::doctor {

namespace {

// Weights on the verdict's scale (verdict_causes.cpp): a confirming fact makes a cause confirmed;
// the only cause a row documents is likely; one of several is possible.
constexpr int kConfirmedScore = 10;
constexpr int kOnlyCauseScore = 6;
constexpr int kPossibleScore = 3;
// As the rule families weigh a refusal the driver states (verdict_health.cpp).
constexpr int kDriverStatementScore = 32;

void add_gpus(std::vector<std::string>& gpus, const std::vector<FactValue>& values) {
  for (const auto& v : values)
    if (!v.gpu.empty() && std::find(gpus.begin(), gpus.end(), v.gpu) == gpus.end())
      gpus.push_back(v.gpu);
}

std::string values_text(const std::vector<FactValue>& values) {
  std::vector<std::string> parts;
  for (const auto& v : values) {
    const std::string one =
        v.gpu.empty() ? v.value : (v.value.empty() ? v.gpu : v.gpu + " " + v.value);
    if (std::find(parts.begin(), parts.end(), one) == parts.end()) parts.push_back(one);
  }
  return join_some(parts, 2);
}

// "cuInit is CUDA_ERROR_NO_DEVICE", "context creation is CUDA_ERROR_OUT_OF_MEMORY on
// 0000:41:00.0", "kernel.log has "apparmor=\"DENIED\"" (<the line>)".
std::string matched_text(const RowHit& h) {
  std::string out = describe(h.row->when);
  if (h.row->when.op != FactOp::kIs) return out + " (" + values_text(h.values) + ")";
  std::vector<FactValue> gpus_only;
  for (const auto& v : h.values)
    if (!v.gpu.empty()) gpus_only.push_back(FactValue{"", v.gpu});
  return gpus_only.empty() ? out : out + " on " + values_text(gpus_only);
}

std::string row_line(const RowHit& h) {
  return std::string(h.table->title) + ": " + matched_text(h) + ": " + h.row->meaning;
}

const FactTest* first_holding(const FactView& view, const std::vector<FactTest>& tests) {
  for (const auto& t : tests)
    if (holds(view, t)) return &t;
  return nullptr;
}

// `rank` is the cause's place in its row: of two confirmed causes the documented likelier wins.
Cause cause_of(const FactView& view, const RowHit& h, const DocumentedCause& c, std::size_t rank) {
  std::vector<std::string> evidence{row_line(h)};
  std::vector<std::string> gpus;
  add_gpus(gpus, h.values);
  int score = h.row->causes.size() == 1 && c.confirm.empty() ? kOnlyCauseScore : kPossibleScore;
  if (h.row->driver_states_cause) score = kDriverStatementScore;
  for (const auto& t : c.confirm) {
    if (!holds(view, t)) continue;
    score = kConfirmedScore + static_cast<int>(h.row->causes.size() - 1 - rank);
    const auto values = matching_values(view, t);
    evidence.push_back(describe(t) + (values.empty() ? "" : ": " + values_text(values)));
    add_gpus(gpus, values);
  }
  std::sort(gpus.begin(), gpus.end());
  return make_cause(c.id, c.title, score, evidence, c.fix, gpus);
}

// Causes a rule family weighs with more facts than a row holds (GSP running on every GPU clears
// the firmware, the driver's own words clear "no driver", a logged suspend tells stale UVM): a row
// adds its evidence and GPUs to them where the family named them, and never names them itself.
const std::set<std::string> kFamilyJudged = {"no_driver",
                                             "gsp_firmware",
                                             "device_access",
                                             "uvm_stale",
                                             "uvm_hmm",
                                             "libcuda_missing",
                                             "fabric_manager",
                                             "version_mismatch",
                                             "compat_library",
                                             "stub_library",
                                             "vgpu_unlicensed",
                                             "gpu_lost",
                                             "gpu_reset_required",
                                             "gpu_memory",
                                             "nvlink_error",
                                             "mig_enabled",
                                             "vgpu_p2p",
                                             "geforce_p2p",
                                             "vm_p2p",
                                             "container_no_gpus",
                                             "visible_devices",
                                             "uvm_node"};

void merge_into(std::vector<Cause>& out, Cause c) {
  auto same = std::find_if(out.begin(), out.end(), [&](const Cause& x) { return x.id == c.id; });
  if (same == out.end()) {
    if (kFamilyJudged.count(c.id) == 0) out.push_back(std::move(c));
    return;
  }
  for (auto& e : c.evidence)
    if (std::find(same->evidence.begin(), same->evidence.end(), e) == same->evidence.end())
      same->evidence.push_back(std::move(e));
  for (auto& g : c.gpus)
    if (std::find(same->gpus.begin(), same->gpus.end(), g) == same->gpus.end())
      same->gpus.push_back(std::move(g));
  std::sort(same->gpus.begin(), same->gpus.end());
  if (c.score > same->score)
    *same = make_cause(same->id, same->title, c.score, same->evidence, same->fix, same->gpus);
}

}  // namespace

std::vector<RowHit> row_hits(const FactView& view) {
  std::vector<RowHit> out;
  for (const auto& table : documented_tables())
    for (const auto& row : table.rows)
      if (holds(view, row.when))
        out.push_back(RowHit{&table, &row, matching_values(view, row.when)});
  return out;
}

std::vector<Finding> documented_findings(const Facts& f) {
  const FactView view = fact_view(f);
  const std::vector<RowHit> hits = row_hits(view);
  std::vector<Finding> out;
  for (const auto& table : documented_tables()) {
    Finding x;
    x.id = std::string("known.") + table.id;
    x.status = Status::kSkip;
    for (const auto& h : hits) {
      if (h.table != &table) continue;
      std::vector<const DocumentedCause*> standing;
      for (const auto& c : h.row->causes)
        if (first_holding(view, c.rule_out) == nullptr) standing.push_back(&c);
      // A row whose every cause the facts exclude says nothing about this host (libcuda missing
      // on a host without a driver is the missing driver): the verdict lists what was ruled out.
      if (standing.empty()) continue;
      x.status = worst(x.status, h.row->severity);
      std::vector<std::string> titles;
      for (const auto* c : standing) titles.push_back(c->title);
      x.evidence.push_back(row_line(h) + "; documented causes: " + join(titles, "; "));
      if (x.summary.empty()) {
        x.summary = matched_text(h) + ": " + h.row->meaning;
        // A family-judged cause may be withheld by its family (the driver's own words clear "no
        // driver"): its fix comes with the family's check, not here.
        for (const auto* c : standing)
          if (kFamilyJudged.count(c->id) == 0 && x.hint.empty()) x.hint = c->fix;
      }
    }
    if (x.evidence.size() > 1)
      x.summary += " (+" + std::to_string(x.evidence.size() - 1) + " more documented row(s))";
    if (x.status == Status::kSkip) continue;
    out.push_back(std::move(x));
  }
  return out;
}

void documented_causes(const Facts& f, std::vector<Cause>& out) {
  const FactView view = fact_view(f);
  // A merely possible cause of a row is named only where nothing of weight explains the host:
  // beside a confirmed cause it would be noise.
  const bool explained =
      std::any_of(out.begin(), out.end(), [](const Cause& c) { return c.score >= 5; });
  for (const auto& h : row_hits(view))
    for (std::size_t i = 0; i < h.row->causes.size(); ++i) {
      if (first_holding(view, h.row->causes[i].rule_out) != nullptr) continue;
      Cause c = cause_of(view, h, h.row->causes[i], i);
      const bool named =
          std::any_of(out.begin(), out.end(), [&](const Cause& x) { return x.id == c.id; });
      if (c.score < kOnlyCauseScore && explained && !named) continue;
      merge_into(out, std::move(c));
    }
}

std::vector<std::string> documented_ruled_out(const Facts& f) {
  const FactView view = fact_view(f);
  std::vector<std::string> out;
  for (const auto& h : row_hits(view))
    for (const auto& c : h.row->causes)
      if (const FactTest* t = first_holding(view, c.rule_out)) {
        std::string line =
            std::string(c.title) + " ruled out for " + describe(h.row->when) + ": " + describe(*t);
        if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
      }
  return out;
}

bool documented_finding_blocks_cuda(const std::string& finding_id) {
  for (const auto& t : documented_tables())
    if (finding_id == std::string("known.") + t.id) return t.blocks_cuda;
  return false;
}

}  // namespace p2p::doctor
