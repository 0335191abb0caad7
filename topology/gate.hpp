// The gate: may this host run benchmarks? A pure function of the snapshot, an optional golden
// snapshot and an optional policy; it returns every reason, pair by pair, so a blocked host is
// explained in full. Only the CUDA peer-access check needs a live GPU; the caller that has one
// (bench) passes it in, everyone else gets it recorded as still to be done.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "topology/policy.hpp"
#include "topology/snapshot.hpp"

namespace p2p::topo {

// One pair's CUDA peer access as the live check found it.
struct PeerAccessResult {
  std::size_t gpu_a = 0, gpu_b = 0;  // snapshot indexes
  bool can_access = false;
  std::string detail;  // e.g. "cudaDeviceCanAccessPeer = 0"
};
using PeerAccessCheck = std::function<std::vector<PeerAccessResult>(const TopologySnapshot&)>;

// What one gate reason says. JSON and text spell it "pass", "block", "pending" (a check only a
// live host can answer), "note".
enum class GateVerdict { kPass, kBlock, kPending, kNote };
const char* to_string(GateVerdict v);
void to_json(nlohmann::json& j, GateVerdict v);
void from_json(const nlohmann::json& j, GateVerdict& v);  // InputError for another word

struct GateReason {
  std::string rule;  // expect.gpu_count, expect.pair_class, policy.min_gpus, policy.max_path,
                     // policy.forbid, policy.min_link, policy.require_p2p,
                     // policy.require_cliques, note
  GateVerdict verdict = GateVerdict::kNote;
  std::string message;            // one line for people
  std::vector<std::size_t> gpus;  // the GPUs (or the pair) it is about, snapshot indexes
};

struct GateDecision {
  static constexpr int kSchemaVersion = 1;
  bool passed = true;
  std::string pairing;  // how GPUs were matched against the golden: pci_bus_id | index | none | ""
  std::string expected_source;  // the golden topology's source, "" without --expect
  std::optional<GatePolicy> policy;
  // not requested | needs a live CUDA check | passed | failed
  std::string p2p_check = "not requested";
  std::vector<GateReason> reasons;
  std::size_t blocking() const;
};

GateDecision evaluate_gate(const TopologySnapshot& t,
                           const std::optional<TopologySnapshot>& expected,
                           const std::optional<GatePolicy>& policy,
                           const PeerAccessCheck& peer_access = {});

void to_json(nlohmann::json& j, const GateReason& r);
void from_json(const nlohmann::json& j, GateReason& r);
void to_json(nlohmann::json& j, const GateDecision& d);
void from_json(const nlohmann::json& j, GateDecision& d);

// The decision for people (topology/gate_text.cpp): the notes first (a VM's first of all), then
// one line per kind of reason with its count and the GPUs it names (28 pairs of one VM are one
// line, not 28), and, where the gate blocks, the next step for its first blocking rule.
std::string format_gate_text(const GateDecision& d);
// The command's last line: "p2pcheck gate: PASS", or "p2pcheck gate: BLOCKED — <first blocking
// rule>: <its grouped line> (N blocking reasons)".
std::string gate_verdict_line(const GateDecision& d, const std::string& command);

// How the note on a snapshot taken in a VM begins.
inline const std::string kTakenInAVm = "this snapshot was taken in a VM";

}  // namespace p2p::topo
