#include "document/suspects.hpp"

#include <cctype>
#include <map>
#include <set>

namespace p2p::doc {
namespace {

// The GPUs a text names: "gpu" followed by digits, as a whole word ("gpu5", "host->gpu5",
// "gpu0<->gpu5"), each counted once however often it appears.
std::set<std::string> gpus_named(const std::string& text) {
  std::set<std::string> out;
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t at = text.find("gpu"); at != std::string::npos; at = text.find("gpu", at + 1)) {
    if (at > 0 && word_char(text[at - 1])) continue;
    std::size_t end = at + 3;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at + 3 || (end < text.size() && word_char(text[end]))) continue;
    out.insert(text.substr(at, end - at));
  }
  return out;
}

}  // namespace

std::optional<Suspect> suspect_of(const RunVerdict& v) {
  const auto reasons = v.reasons();
  if (reasons.size() < 2) return std::nullopt;
  std::map<std::string, int> named;
  for (const auto& r : reasons)
    for (const auto& g : gpus_named(r.subject + " " + r.message)) ++named[g];
  std::optional<Suspect> best;
  int runner_up = 0;
  for (const auto& [gpu, n] : named) {
    if (!best || n > best->named_in) {
      runner_up = best ? best->named_in : 0;
      best = Suspect{gpu, n, static_cast<int>(reasons.size())};
    } else {
      runner_up = std::max(runner_up, n);
    }
  }
  if (!best || best->named_in <= runner_up || 2 * best->named_in < best->reasons)
    return std::nullopt;
  for (const auto& r : reasons) {
    const bool host_copy =
        r.subject.find("host") != std::string::npos && gpus_named(r.subject).count(best->gpu) > 0;
    if (!host_copy) continue;
    if (r.rule == "link_ceiling" || r.rule == "floor" || r.rule == "model_reference") {
      best->host_link = r.message.substr(0, r.message.find(';'));
      break;
    }
    if (r.rule == "compare") {  // against a baseline: the figure and how far it moved
      best->host_link = r.subject + " " + r.message.substr(0, r.message.find(" ("));
      break;
    }
  }
  return best;
}

std::vector<GpuOutcome> gpu_outcomes(const RunVerdict& v, const std::optional<Suspect>& suspect) {
  std::map<int, GpuOutcome> by_number;
  for (const auto& c : v.checks) {
    if (c.outcome == Outcome::kSkipped || c.outcome == Outcome::kNotMeaningful) continue;
    const std::set<std::string> named = gpus_named(c.subject);
    const bool bad = c.outcome == Outcome::kFail || c.outcome == Outcome::kError;
    const bool blames_suspect = suspect && named.count(suspect->gpu) > 0;
    for (const auto& g : named) {
      if (g.size() > 3 + 6) continue;  // no GPU number has seven digits; stoi would overflow
      GpuOutcome& o = by_number[std::stoi(g.substr(3))];
      o.gpu = g;
      ++o.checks;
      if (blames_suspect && g != suspect->gpu) continue;
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
  const std::string counted = "suspect: " + s.gpu + " in " + std::to_string(s.named_in) + " of " +
                              std::to_string(s.reasons) + " reasons";
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
  if (suspect)
    s = {{"gpu", suspect->gpu},
         {"named_in", suspect->named_in},
         {"reasons", suspect->reasons},
         {"host_link", suspect->host_link},
         {"line", suspect_line(*suspect)}};
  return {{"suspect", s}, {"gpus", gpus}};
}

}  // namespace p2p::doc
