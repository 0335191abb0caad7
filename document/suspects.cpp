#include "document/suspects.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "document/subject_gpus.hpp"

namespace p2p::doc {
namespace {

constexpr std::array<SuspectKind, 5> kKindsInOrder = {SuspectKind::kHost, SuspectKind::kGpu,
                                                      SuspectKind::kSwitch, SuspectKind::kNuma,
                                                      SuspectKind::kPath};

// The names of places of one kind a check records ("switch 0000:40:00.0" gives "0000:40:00.0").
std::set<std::string> places_of(const Check& c, const std::string& kind) {
  const std::string word = kind + " ";
  std::set<std::string> out;
  for (const auto& p : c.places)
    if (p.compare(0, word.size(), word) == 0) out.insert(p.substr(word.size()));
  return out;
}

// A check of a fleet: its GPU names are each host's own, so they name no one GPU.
bool per_host(const Check& c) {
  return !places_of(c, "host").empty() ||
         std::find(c.places.begin(), c.places.end(), "fleet") != c.places.end();
}

// The names of `kind` a check points at: the GPUs its subject and message name, or its places
// of that kind.
std::set<std::string> named_by(const Check& c, SuspectKind kind) {
  if (kind != SuspectKind::kGpu) return places_of(c, to_string(kind));
  return per_host(c) ? std::set<std::string>{} : gpus_named(c.subject + " " + c.message);
}

// A GPU number, for ordering "gpu2" before "gpu10".
long gpu_number(const std::string& gpu) {
  return gpu.size() > 3 && gpu.size() <= 3 + 9 ? std::stol(gpu.substr(3)) : -1;
}

// The best candidate of one kind, if it singles something out (see suspect_of).
std::optional<Suspect> best_of_kind(const RunVerdict& v, const std::vector<Check>& reasons,
                                    SuspectKind kind) {
  std::map<std::string, int> named;
  for (const auto& r : reasons)
    for (const auto& n : named_by(r, kind)) ++named[n];
  std::optional<Suspect> best;
  int runner_up = 0;
  for (const auto& [name, n] : named) {
    if (!best || n > best->named_in) {
      runner_up = best ? best->named_in : 0;
      best = Suspect{kind, name, n, static_cast<int>(reasons.size()), {}, ""};
    } else {
      runner_up = std::max(runner_up, n);
    }
  }
  if (!best || best->named_in <= runner_up || 2 * best->named_in < best->reasons)
    return std::nullopt;
  // It must single something out: some judged check of this kind does not name it.
  bool another = false;
  for (const auto& c : v.checks) {
    if (c.outcome == Outcome::kSkipped || c.outcome == Outcome::kNotMeaningful) continue;
    const auto names = named_by(c, kind);
    if (!names.empty() && names.count(best->name) == 0) another = true;
  }
  if (!another) return std::nullopt;
  return best;
}

void add_host_link(Suspect& s, const std::vector<Check>& reasons) {
  for (const auto& r : reasons) {
    const bool host_copy =
        r.subject.find("host") != std::string::npos && gpus_named(r.subject).count(s.name) > 0;
    if (!host_copy) continue;
    if (r.rule == "link_ceiling" || r.rule == "floor" || r.rule == "model_reference") {
      s.host_link = r.message.substr(0, r.message.find(';'));
      return;
    }
    if (r.rule == "compare") {  // against a baseline: the figure and how far it moved
      s.host_link = r.subject + " " + r.message.substr(0, r.message.find(" ("));
      return;
    }
  }
}

void add_place_gpus(Suspect& s, const std::vector<Check>& reasons) {
  std::set<std::string> gpus;
  for (const auto& r : reasons)
    if (named_by(r, s.kind).count(s.name) > 0)
      for (const auto& g : gpus_named(r.subject)) gpus.insert(g);
  s.gpus.assign(gpus.begin(), gpus.end());
  std::stable_sort(s.gpus.begin(), s.gpus.end(), [](const std::string& a, const std::string& b) {
    return gpu_number(a) < gpu_number(b);
  });
}

// What to do about a suspect place, by kind (and for a path, by its class).
std::string next_step(const Suspect& s) {
  switch (s.kind) {
    case SuspectKind::kHost:
      return "look at that host's own verdict and doctor first (p2pcheck judge, p2pcheck doctor)";
    case SuspectKind::kSwitch:
      return "the GPUs behind it fail together: check its uplink's width and speed and ACS on its "
             "ports (p2pcheck doctor: pcie.link, pcie.acs)";
    case SuspectKind::kNuma:
      return "the GPUs of one NUMA node (a CPU socket, or part of one) fail together: check its root ports (p2pcheck doctor: "
             "pcie.link, pcie.acs) and what else runs on that node";
    case SuspectKind::kGpu: break;
    case SuspectKind::kPath:
      if (s.name == "SYS")
        return "they cross between CPU sockets: keep tensor-parallel groups within one socket, "
               "and check the inter-socket link";
      if (s.name == "PHB" || s.name == "NODE")
        return "they cross the CPU's host bridges: check ACS and the IOMMU (p2pcheck doctor: "
               "pcie.acs); in a VM, P2P needs GPUDirect cliques (p2pcheck vm plan)";
      if (s.name == "PIX" || s.name == "PXB")
        return "they cross PCIe switches: check ACS on the switch ports (p2pcheck doctor: "
               "pcie.acs)";
      return "check the links of that kind (NVLink: nvidia-smi nvlink --status)";
  }
  return "look at it, its slot and its link first";
}

}  // namespace

const char* to_string(SuspectKind k) {
  switch (k) {
    case SuspectKind::kHost: return "host";
    case SuspectKind::kGpu: return "gpu";
    case SuspectKind::kSwitch: return "switch";
    case SuspectKind::kNuma: return "numa";
    case SuspectKind::kPath: return "path";
  }
  return "gpu";
}

std::string Suspect::label() const {
  switch (kind) {
    case SuspectKind::kHost: return "host " + name;
    case SuspectKind::kGpu: return name;
    case SuspectKind::kSwitch: return "PCIe switch " + name;
    case SuspectKind::kNuma: return "NUMA node " + name;
    case SuspectKind::kPath: return "the " + name + " paths";
  }
  return name;
}

std::optional<Suspect> suspect_of(const RunVerdict& v) {
  const auto reasons = v.reasons();
  if (reasons.size() < 2) return std::nullopt;
  for (const SuspectKind kind : kKindsInOrder) {
    auto s = best_of_kind(v, reasons, kind);
    if (!s) continue;
    if (kind == SuspectKind::kGpu) {
      add_host_link(*s, reasons);
    } else if (kind != SuspectKind::kHost) {
      add_place_gpus(*s, reasons);
    }
    return s;
  }
  return std::nullopt;
}

std::vector<GpuOutcome> gpu_outcomes(const RunVerdict& v, const std::optional<Suspect>& suspect) {
  std::map<long, GpuOutcome> by_number;
  const std::string blamed = suspect && suspect->kind == SuspectKind::kGpu ? suspect->name : "";
  for (const auto& c : v.checks) {
    // A fleet numbers its GPUs per host: gpu0 of two hosts is no one GPU.
    if (c.outcome == Outcome::kSkipped || c.outcome == Outcome::kNotMeaningful || per_host(c))
      continue;
    const std::set<std::string> named = gpus_named(c.subject);
    const bool bad = c.outcome == Outcome::kFail || c.outcome == Outcome::kError;
    const bool blames_suspect = !blamed.empty() && named.count(blamed) > 0;
    for (const auto& g : named) {
      const long number = gpu_number(g);
      if (number < 0) continue;  // no GPU number has ten digits
      GpuOutcome& o = by_number[number];
      o.gpu = g;
      ++o.checks;
      if (blames_suspect && g != blamed) continue;
      if (bad) ++o.failed;
      if (c.outcome == Outcome::kWarn) ++o.warned;
    }
  }
  std::vector<GpuOutcome> out;
  for (auto& [n, o] : by_number) {
    o.outcome = o.failed > 0 ? Outcome::kFail : o.warned > 0 ? Outcome::kWarn : Outcome::kPass;
    out.push_back(o);
  }
  return out;
}

std::string gpu_outcomes_line(const std::vector<GpuOutcome>& gpus) {
  constexpr std::size_t kPassingNamed = 16;  // more passing GPUs are counted, not named
  std::string bad, passing;
  std::size_t passed = 0;
  for (const auto& g : gpus) {
    if (g.outcome == Outcome::kPass) {
      if (passed++ < kPassingNamed) passing += (passing.empty() ? "" : ", ") + g.gpu;
      continue;
    }
    const bool fail = g.outcome == Outcome::kFail;
    bad += (bad.empty() ? "" : "; ") + g.gpu + (fail ? " FAIL (" : " WARN (") +
           std::to_string(fail ? g.failed : g.warned) + " of " + std::to_string(g.checks) +
           " checks)";
  }
  if (gpus.size() < 2 || bad.empty()) return "";
  if (passed == 0) return "per GPU: " + bad;
  return "per GPU: " + bad + "; " + std::to_string(passed) + " pass (" + passing +
         (passed > kPassingNamed ? ", ..." : "") + ")";
}

std::string suspect_line(const Suspect& s) {
  std::string counted = "suspect: " + s.label();
  if (!s.gpus.empty()) {
    std::string list;
    for (const auto& g : s.gpus) list += (list.empty() ? "" : ", ") + g;
    counted += " (" + list + ")";
  }
  counted += " in " + std::to_string(s.named_in) + " of " + std::to_string(s.reasons) + " reasons";
  if (s.kind != SuspectKind::kGpu) return counted + ": " + next_step(s);
  if (s.host_link.empty()) return counted + ": look at it, its slot and its link first";
  return counted + "; its host link: " + s.host_link +
         ": check the width and speed it trained at (p2pcheck doctor: pcie.link), then reseat it";
}

nlohmann::json suspects_json(const RunVerdict& v) {
  const auto suspect = suspect_of(v);
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : gpu_outcomes(v, suspect))
    gpus.push_back({{"gpu", g.gpu},
                    {"outcome", to_string(g.outcome)},
                    {"checks", g.checks},
                    {"failed", g.failed},
                    {"warned", g.warned}});
  nlohmann::json s = nullptr;
  if (suspect) {
    const bool gpu = suspect->kind == SuspectKind::kGpu;
    s = {{"kind", to_string(suspect->kind)},
         {"name", suspect->name},
         {"gpu", gpu ? nlohmann::json(suspect->name) : nlohmann::json(nullptr)},
         {"gpus", gpu ? std::vector<std::string>{suspect->name} : suspect->gpus},
         {"named_in", suspect->named_in},
         {"reasons", suspect->reasons},
         {"host_link", suspect->host_link},
         {"line", suspect_line(*suspect)}};
  }
  return {{"suspect", s}, {"gpus", gpus}};
}

}  // namespace p2p::doc
