// One verdict per run. Every judged item of a run is a Check (a rule applied to a figure, a
// pair, a GPU or the run); what is true of the whole run and every reader must show is a Caveat;
// the RunVerdict holds both, with the run's outcome and its reasons, most important first.
// The verdict is written into the document it judges (key "verdict"), so `report`, `compare`,
// `export`, JUnit and JSON lines all show the same one. Pure data and pure functions.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/outcome.hpp"

namespace p2p::doc {

// Something true of the whole run that changes what its figures mean.
enum class CaveatKind {
  kInterrupted,   // stopped before its end: the figures after the stop are absent
  kShared,        // another process or p2pcheck run used a measured GPU meanwhile
  kLogicalGpus,   // several logical GPUs on one device: peer figures measure the tool
  kUnverified,    // figures p2pcheck did not verify (imported from a peer tool, NCCL with -c 0)
  kWaived,        // figures or checks not measured, with their reasons
  kGateOverride,  // measured although the gate blocked (--skip-gate)
};
const char* to_string(CaveatKind k);  // interrupted | shared | logical | unverified | waived |
                                      // gate_override
CaveatKind caveat_from_string(const std::string& word, const std::string& what);

struct Caveat {
  CaveatKind kind = CaveatKind::kWaived;
  std::string detail;  // one line: "SIGTERM after 439 figures", "pid 4242 (python3) on gpu0"
};

// One judged item.
struct Check {
  std::string rule;     // the rule's stable name: "verification", "link_ceiling", ...
  std::string subject;  // what it judged: "ce_unidir_write gpu0->gpu1 256MiB", "gpu3", "run"
  Outcome outcome = Outcome::kPass;
  std::string message;             // one line naming the figure, the value and the expectation
  std::optional<double> value;     // the figure judged, in `unit`
  std::optional<double> expected;  // the bound it was held to, in `unit`
  std::string unit;                // "GB/s", "ns", "x" (a ratio), "GPUs", ""
  int priority = 100;              // among reasons of one outcome: lower comes first
  // What the figure was held to, so a reader knows how far to trust the expectation: "run" (the
  // run's own facts: verification, GPUs seen, caveats), "measured" (other figures of this run:
  // ratios, outliers), "topology" (the link the document's topology gives), "model" (the GPU
  // model's reference in the hardware knowledge base; the message names its source),
  // "path_class" (a guess from the pair's path class), "policy" (a threshold or floor of the
  // policy, defaults included), "baseline" (compare: the same figure in the baseline run). "" in
  // documents written before the field (key "basis", written only when set).
  std::string basis;
  // Where the judged figure ran, beyond the GPUs its subject names, as "<kind> <name>" words the
  // suspect counts (suspects.hpp): "path SYS", "numa 1", "switch 0000:40:00.0", "host node07".
  // Set where the judge knew the topology or the host; "fleet" marks a figure judged across a
  // fleet's hosts, whose GPU names are each host's own. Empty in documents written before the
  // field (key "places", written only when set).
  std::vector<std::string> places;
};

// "measured on this host", "the model's reference", ... for the text of a reason.
std::string basis_words(const std::string& basis);

struct RunVerdict {
  static constexpr const char* kSchema = "p2pcheck.verdict";
  static constexpr int kVersion = 1;
  Outcome outcome = Outcome::kPass;
  bool hung = false;         // a transfer or collective hung (exit code 5)
  int interrupt_signal = 0;  // the signal that stopped the run, 0 = none (exit 128+N)
  std::string judged_by;     // "bench", "nccl", "compare", "report (recomputed)", ...
  std::string policy;        // where the thresholds came from: "defaults", "policy.json"
  std::vector<Caveat> caveats;
  std::vector<Check> checks;  // every judged item, in the order judged

  // The checks that did not pass or passed with a warning: most severe outcome first, then by
  // priority, then in the order judged.
  std::vector<Check> reasons() const;
  int count(Outcome o) const;
  bool has_caveat(CaveatKind k) const;
};

// Adds a check and folds its outcome into the run's.
void add_check(RunVerdict& v, Check c);
// Adds a caveat (once per kind: a second detail of the same kind is appended to the first).
void add_caveat(RunVerdict& v, CaveatKind kind, const std::string& detail);

// The one exit policy of every command that judges a run: 128+N after signal N, 5 when a
// transfer or collective hung, 1 when the run failed, 4 when a check could not be made
// (a library failure, a rank that died), else 0. README "Exit codes" documents it.
int exit_code(const RunVerdict& v);

// "PASS", "PASS with warnings", "FAIL", "ERROR".
std::string headline(const RunVerdict& v);

// The verdict block every command ends with: the reasons, most important first (at most
// `max_reasons`, then how many more), the caveats, and last the one line
// "<command>: PASS|FAIL — <first reason>", ending " [caveats: logical, shared]" where the run has
// caveats.
std::string format_verdict(const RunVerdict& v, const std::string& command, int max_reasons = 10);

// The same block after a table that already lists some reasons (compare's rows): those are
// counted, not listed again, and the suspect is left out where it headed the table.
struct VerdictBlock {
  int max_reasons = 10;
  std::function<bool(const Check&)> shown_above;  // empty: nothing was shown above
  bool suspect_shown_above = false;
};
std::string format_verdict(const RunVerdict& v, const std::string& command,
                           const VerdictBlock& how);

// "interrupted (SIGTERM after 439 figures); shared (pid 4242 on gpu0)"; "" without caveats.
std::string caveats_line(const std::vector<Caveat>& caveats);

void to_json(nlohmann::json& j, const Caveat& c);
void from_json(const nlohmann::json& j, Caveat& c);
void to_json(nlohmann::json& j, const Check& c);
void from_json(const nlohmann::json& j, Check& c);
void to_json(nlohmann::json& j, const RunVerdict& v);    // schema p2pcheck.verdict v1
void from_json(const nlohmann::json& j, RunVerdict& v);  // InputError for another version

}  // namespace p2p::doc
