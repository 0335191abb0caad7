// The rules that know the hardware: each figure against what its GPU model must deliver (the
// floors the hardware knowledge base derives from published figures), whether P2P is in effect
// where a tool claims it, and whether the GPUs have peer access at all. They judge what the
// document's own figures cannot: a host whose every pair is equally bad, an import without a
// topology, a box whose "P2P=Enabled" copies are staged copies.
#include <algorithm>
#include <map>
#include <set>

#include "acceptance/grading.hpp"
#include "acceptance/rules.hpp"
#include "common/byte_size.hpp"
#include "common/text.hpp"
#include "document/case_names.hpp"
#include "document/figure_key.hpp"
#include "hardware/floors.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;

// The knowledge base's path classes: "NV4" and "NV18" are both "NV"; "" where not placed.
std::string kb_path(const std::string& label) { return label.rfind("NV", 0) == 0 ? "NV" : label; }

std::string value_text(double v, const std::string& unit) {
  return unit == "us" ? micros(v * 1000) : gbps(v);
}

std::string range_text(const hw::DerivedFloor& f) {
  return f.low == f.high ? value_text(f.low, f.unit)
                         : value_text(f.low, f.unit) + " to " + value_text(f.high, f.unit);
}

// One figure against the model's floor for its metric and path.
void reference_check(Judging& j, const hw::GpuModel& m, const std::string& metric,
                     const std::string& path, std::optional<int> gpus, const std::string& subject,
                     double value) {
  const auto choice = hw::floor_for(j.view.knowledge_base(), m, metric, path, gpus);
  if (!choice) return;
  hw::DerivedFloor f = choice->floor;
  // Bandwidth: the policy's fractions of the published low end (the defaults are the
  // knowledge base's own, hardware/floors.hpp); latency keeps the knowledge base's factors.
  const Bounds& b = *j.settings.thresholds.model_reference;
  if (f.higher_is_better) {
    f.warn = f.low * b.warn;
    f.fail = f.low * b.fail;
    f.rule = "warn below " + ratio(b.warn) + " the published low end, fail below " + ratio(b.fail) +
             " it";
  }
  Outcome o = Outcome::kPass;
  if (f.higher_is_better)
    o = value < f.fail ? Outcome::kFail : value < f.warn ? Outcome::kWarn : Outcome::kPass;
  else
    o = value > f.fail ? Outcome::kFail : value > f.warn ? Outcome::kWarn : Outcome::kPass;
  const std::string word = f.higher_is_better ? " below " : " above ";
  doc::Check c = make_check(
      "model_reference", subject, o,
      value_text(value, f.unit) + (o == Outcome::kPass ? " meets" : " falls short of") + " the " +
          m.name + "'s published " + metric +
          (gpus ? " at " + std::to_string(*gpus) + " GPUs" : "") + " of " + range_text(f) + " (" +
          choice->basis_note + "); warn" + word + value_text(f.warn, f.unit) + ", fail" + word +
          value_text(f.fail, f.unit) + " (" + f.rule + "; " + f.sources.front() + ")",
      priority::kModelReference);
  c.value = value;
  c.expected = f.fail;
  c.unit = f.unit;
  add_check(j.verdict, std::move(c));
}

void bandwidth_references(Judging& j, int& unknown) {
  struct Probe {
    const char* case_name;
    const char* part;
    const char* metric;
    bool peers;
  };
  static const Probe kProbes[] = {{doc::cases::kCeUnidirWrite, "", "p2p_unidir", true},
                                  {doc::cases::kCeUnidirRead, "", "p2p_unidir", true},
                                  {doc::cases::kCeBidir, "sum", "p2p_bidir", true},
                                  {doc::cases::kH2dCe, "", "h2d", false},
                                  {doc::cases::kD2hCe, "", "d2h", false}};
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  for (const Probe& p : kProbes) {
    if (p.peers && j.view.logical()) continue;
    for (const auto* r : j.view.plateaus(p.case_name, p.part, min_bytes)) {
      if (r->status != doc::FigureStatus::kOk || !r->median_gbps) continue;
      if (p.peers && !r->p2p.value_or(false)) continue;
      const hw::GpuModel* m = j.view.model_of(r->src, r->dst);
      if (m == nullptr) {
        ++unknown;
        continue;
      }
      reference_check(j, *m, p.metric, p.peers ? kb_path(j.view.path_label(r->src, r->dst)) : "any",
                      std::nullopt, doc::figure_key(*r), *r->median_gbps);
    }
  }
  // Latency as p2pBandwidthLatencyTest measures it (a one-element copy with peer access), the
  // figure the published P2P latencies are.
  if (j.view.logical()) return;
  for (const auto& l : j.view.doc().latency) {
    if ((l.case_name != "memcpy_latency_p2p_write" && l.case_name != "memcpy_latency_p2p_read") ||
        l.status != doc::FigureStatus::kOk || !l.median_ns || !l.p2p.value_or(false))
      continue;
    if (const hw::GpuModel* m = j.view.model_of(l.src, l.dst))
      reference_check(j, *m, "p2p_latency_us", kb_path(j.view.path_label(l.src, l.dst)),
                      std::nullopt, doc::figure_key(l), *l.median_ns / 1000);
  }
}

// all_reduce at the largest size each rank count reached: NCCL's bus bandwidth plateau.
void nccl_references(Judging& j, const doc::NcclRun& run) {
  if (run.p2p_disabled) return;
  const hw::GpuModel* m = j.view.document_model();
  if (m == nullptr) return;
  std::map<int, const doc::CollectiveResult*> largest;
  for (const auto& r : run.results) {
    if (r.collective != "all_reduce" || r.status != doc::CollectiveStatus::kOk || !r.busbw_gbps ||
        r.nranks < 2 || !r.not_meaningful.empty())
      continue;
    const doc::CollectiveResult*& slot = largest[r.nranks];
    if (slot == nullptr || r.size_bytes > slot->size_bytes ||
        (r.size_bytes == slot->size_bytes && *r.busbw_gbps > *slot->busbw_gbps))
      slot = &r;
  }
  for (const auto& [n, r] : largest) {
    const std::string subject = "all_reduce " + std::to_string(n) + "r " +
                                format_bytes(r->size_bytes, ByteStyle::kCompact) + " busbw";
    if (r->size_bytes < kMinPlateauBytes) {
      add_check(j.verdict, make_check("model_reference", subject, Outcome::kSkipped,
                                      "the largest all_reduce is below " +
                                          format_bytes(kMinPlateauBytes, ByteStyle::kCompact) +
                                          ": bus bandwidth has not reached its plateau there",
                                      priority::kModelReference));
      continue;
    }
    reference_check(j, *m, "allreduce_busbw", "", n, subject, *r->busbw_gbps);
  }
}

// Words for the model's P2P policy, for reasons about P2P that is missing or not in effect.
std::string policy_words(const hw::GpuModel* m) {
  if (m == nullptr) return "the GPU model is not in the knowledge base";
  switch (m->p2p_over_pcie) {
    case hw::P2pPolicy::kRefusedByStockDriver:
      return "the " + m->name + " is a GeForce board: the stock driver refuses P2P over PCIe" +
             (m->p2p_exceptions.empty() ? "" : " (" + m->p2p_exceptions + ")");
    case hw::P2pPolicy::kGranted:
      return "the " + m->name +
             " is granted P2P where the platform allows it: look at IOMMU/ACS, the VM's GPUDirect "
             "cliques and the BIOS (p2pcheck doctor)";
    case hw::P2pPolicy::kUnknown: break;
  }
  return "the " + m->name + "'s P2P policy is not known";
}

const doc::LatencyResult* latency_of(const DocumentView& v, const std::string& src,
                                     const std::string& dst,
                                     std::initializer_list<const char*> cases) {
  for (const char* c : cases)
    if (const auto* l = v.latency(c, src, dst);
        l && l->status == doc::FigureStatus::kOk && l->median_ns && *l->median_ns > 0)
      return l;
  return nullptr;
}

// A pair whose "P2P" latency is that of the same pair staged through the host: the driver said
// yes, the copies did not take the peer path.
void in_effect_check(Judging& j, const std::string& src, const std::string& dst) {
  const auto* enabled =
      latency_of(j.view, src, dst, {"memcpy_latency_p2p_write", "memcpy_latency_p2p_read"});
  const auto* staged = latency_of(j.view, src, dst, {"memcpy_latency_p2p_off"});
  if (enabled == nullptr || staged == nullptr || !enabled->p2p.value_or(false)) return;
  const double x = *enabled->median_ns / *staged->median_ns;
  const std::uint64_t min_bytes = j.settings.thresholds.min_judged_bytes;
  const auto* p2p_bw = j.view.plateau(doc::cases::kCeUnidirWrite, src, dst, "", min_bytes);
  const auto* staged_bw = j.view.plateau(doc::cases::kStaged, src, dst, "", min_bytes);
  std::string bw;
  if (p2p_bw && staged_bw && p2p_bw->median_gbps && staged_bw->median_gbps)
    bw = "; copies " + gbps(*p2p_bw->median_gbps) + " with P2P, " + gbps(*staged_bw->median_gbps) +
         " staged";
  const bool staged_like = x >= kStagedLatencyRatio;
  doc::Check c =
      make_check("p2p_in_effect", src + "->" + dst, staged_like ? Outcome::kFail : Outcome::kPass,
                 std::string(staged_like ? "P2P not in effect: " : "P2P in effect: ") +
                     "latency with peer access " + micros(*enabled->median_ns) + " is " + ratio(x) +
                     " that of the pair staged through the host (" + micros(*staged->median_ns) +
                     ")" + bw + "; fail at " + ratio(kStagedLatencyRatio) + " or more" +
                     (staged_like ? "; " + policy_words(j.view.model_of(src, dst)) : ""),
                 priority::kP2pInEffect);
  c.value = x;
  c.expected = kStagedLatencyRatio;
  c.unit = "x";
  add_check(j.verdict, std::move(c));
}

// Every pair has peer access. On a GeForce board whose stock driver refuses P2P that means a
// patched driver, or one that misreports it (early 525 drivers did, and copies went astray):
// only verified copies say which, and imported figures are not verified.
doc::Check granted_check(const Judging& j, const hw::GpuModel* m, std::size_t pairs) {
  const bool geforce = m != nullptr && m->p2p_over_pcie == hw::P2pPolicy::kRefusedByStockDriver;
  const bool verified = !j.view.imported();
  std::string text = "every one of the " + std::to_string(pairs) + " GPU pairs has peer access";
  if (geforce)
    text += "; the " + m->name +
            "'s stock driver refuses P2P: a patched driver, or one that misreports peer access, "
            "whose copies must be verified" +
            (verified ? " (they were)"
                      : ", and imported figures are not (p2pcheck bench verifies every copy)");
  return make_check("p2p_available", "GPU pairs",
                    geforce && !verified ? Outcome::kWarn : Outcome::kPass, text,
                    priority::kP2pAvailable);
}

}  // namespace

void judge_model_references(Judging& j) {
  if (!j.settings.thresholds.model_reference) return;
  int unknown = 0;
  bandwidth_references(j, unknown);
  if (j.view.doc().nccl) nccl_references(j, j.view.doc().nccl->run);
  if (unknown > 0) {
    std::vector<std::string> names;
    j.view.document_model(&names);
    add_check(j.verdict,
              make_check("model_reference", "figures", Outcome::kSkipped,
                         std::to_string(unknown) +
                             " figure(s) of GPUs whose model the hardware "
                             "knowledge base does not know" +
                             (names.empty() ? " (no name recorded)" : " (" + join(names) + ")"),
                         priority::kModelReference));
  }
}

void judge_p2p_in_effect(Judging& j) {
  if (j.view.logical()) return;
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& l : j.view.doc().latency)
    if (l.src != l.dst && l.case_name.rfind("memcpy_latency_p2p_", 0) == 0)
      pairs.emplace(l.src, l.dst);
  for (const auto& [src, dst] : pairs) in_effect_check(j, src, dst);
}

void judge_p2p_available(Judging& j) {
  const auto& access = j.view.doc().p2p_access;
  if (j.view.logical()) return;
  if (access.size() < 2) {
    // A peer tool that skipped its peer tests for want of peer access, with no GPU list to
    // say between which GPUs (nvbandwidth's waiver, import/nvbandwidth_figures.cpp).
    for (const auto& b : j.view.doc().bandwidth)
      if (b.status == doc::FigureStatus::kWaived && b.detail.rfind("P2P unavailable", 0) == 0) {
        add_check(j.verdict, make_check("p2p_available", "GPU pairs", Outcome::kFail,
                                        b.detail + "; " + policy_words(j.view.document_model()),
                                        priority::kP2pAvailable));
        return;
      }
    return;
  }
  const auto& gpus = j.view.doc().gpus;
  const auto label = [&](std::size_t i) {
    return i < gpus.size() ? doc::gpu_label(gpus[i]) : "gpu" + std::to_string(i);
  };
  // Two records of one device (ranks or logical GPUs sharing a GPU) are no pair: a device is
  // never its own peer.
  const auto same_device = [&](std::size_t a, std::size_t b) {
    if (a >= gpus.size() || b >= gpus.size()) return false;
    if (!gpus[a].pci_bus_id.empty() && !gpus[b].pci_bus_id.empty())
      return gpus[a].pci_bus_id == gpus[b].pci_bus_id;
    return gpus[a].cuda_ordinal == gpus[b].cuda_ordinal;
  };
  std::vector<std::string> missing;
  std::size_t pairs = 0;
  for (std::size_t a = 0; a < access.size(); ++a)
    for (std::size_t b = 0; b < access.size(); ++b) {
      if (a == b || same_device(a, b)) continue;
      ++pairs;
      if (b >= access[a].size() || !access[a][b]) missing.push_back(label(a) + "->" + label(b));
    }
  if (pairs == 0) return;
  const hw::GpuModel* m = j.view.document_model();
  if (missing.empty()) {
    add_check(j.verdict, granted_check(j, m, pairs));
    return;
  }
  const bool none = missing.size() == pairs;
  std::vector<std::string> shown = missing;
  if (shown.size() > 6) shown.resize(6);
  add_check(j.verdict,
            make_check("p2p_available", none ? "GPU pairs" : join(shown, " "),
                       none ? Outcome::kFail : Outcome::kWarn,
                       std::string(none ? "P2P not in effect: no GPU pair has peer access"
                                        : "P2P unavailable on " + std::to_string(missing.size()) +
                                              " of " + std::to_string(pairs) + " GPU pairs") +
                           ", so every copy between GPUs is staged through host memory; " +
                           policy_words(m),
                       priority::kP2pAvailable));
}

}  // namespace p2p::accept
