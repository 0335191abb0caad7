// What a run must show to pass acceptance, beyond the gate: the thresholds of the rules that
// judge every figure (document/verdict.hpp says how a verdict is written), absolute floors a
// user sets per case and path class, and overrides per GPU model and per host.
//
// Every number has a default, so a first run is judged with no golden file and no policy; the
// defaults and why they are what they are: docs/acceptance.md. A rule set to null is off.
//
//   {"min_bandwidth": 50,
//    "thresholds": {"link_ceiling": {"warn": 0.75, "fail": 0.6}, "bidirectional": null},
//    "floors": [{"case": "ce_unidir_write", "path": "NODE", "min_gbps": 45},
//               {"case": "latency_peer", "max_us": 2}],
//    "models": {"RTX PRO 6000": {"min_bandwidth": 48}, "10de:2335": {...}},
//    "hosts": {"gpu-node-1*": {"thresholds": {...}}}}
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::accept {

// A rule's two bounds. For a ratio where more is better (a fraction of a ceiling), a figure
// below `fail` fails and one below `warn` warns; where more is worse (a latency), above.
struct Bounds {
  double warn = 0;
  double fail = 0;
};

struct Thresholds {
  // Figures smaller than this are launch-bound and too noisy to judge; each series is judged at
  // its largest size (the plateau), provided it is at least this.
  std::uint64_t min_judged_bytes = 16ull << 20;
  // Copy-engine one-way figures (host<->GPU, and GPU<->GPU with P2P) as a fraction of the raw
  // per-direction ceiling of the link: healthy Gen5 runs at 0.87-0.90, Gen4 at 0.76-0.86, and
  // any downtrain lands at 0.5 or below.
  std::optional<Bounds> link_ceiling = Bounds{0.72, 0.55};
  // The same for GPU pairs across sockets (SYS), which healthy hosts run at 0.6-0.8.
  std::optional<Bounds> link_ceiling_sys = Bounds{0.50, 0.35};
  // A P2P pair's one-way copy-engine figure over the same pair staged through host memory.
  std::optional<Bounds> p2p_vs_staged = Bounds{1.10, 0.90};
  // A P2P pair's load latency, ns (more is worse): healthy 0.4-2.3 us, staged paths 10-20 us.
  std::optional<Bounds> p2p_latency_ns = Bounds{3000, 5000};
  // Both directions at once over one direction alone (healthy 1.8-2.0).
  std::optional<Bounds> bidirectional = Bounds{1.5, 1.2};
  // The slower direction of a pair (or of a GPU's host link) over the faster one.
  std::optional<Bounds> direction_symmetry = Bounds{0.85, 0.70};
  // A pair over the median of the pairs of its path class (or a GPU's host figure over the
  // median of the host's GPUs): the one bad slot whose absolute figure still passes.
  std::optional<Bounds> class_outlier = Bounds{0.85, 0.70};
  // A latency over the median of its class (more is worse).
  std::optional<Bounds> latency_outlier = Bounds{1.5, 3.0};
  // Outliers are judged only in classes of at least this many members.
  int outlier_min_members = 3;
  // A figure over the low end of what its GPU model is published to deliver on its path
  // (hardware/data/reference_figures.json; the clouds fail at 0.87-0.92 x typical): the host
  // whose every pair is equally bad, an import without a topology. Latencies are held to 2x and
  // 4x the published high end (hardware/floors.hpp).
  std::optional<Bounds> model_reference = Bounds{0.92, 0.85};
  // A judged figure whose samples spread (max - min) / median beyond this warns "unstable".
  std::optional<double> spread_warn_pct = 25.0;
};

// An absolute bound a user sets: for one case (or every judged case), one path class (or any).
struct Floor {
  std::string case_name;                // "" = every case the bound fits
  std::optional<topo::PathClass> path;  // only GPU pairs of this class; nullopt = any
  std::optional<double> min_gbps;       // bandwidth at least this
  std::optional<double> max_us;         // latency at most this
  std::string where;                    // "floors[2]", "models.RTX PRO 6000.min_bandwidth"
};

// The most floors one policy object (the policy, a model's or a host's override) holds.
constexpr std::size_t kMaxFloors = 1024;

struct Settings {
  Thresholds thresholds;
  std::vector<Floor> floors;  // `min_bandwidth` becomes a floor over every one-way CE figure
};

// One override: applied when its pattern matches (a GPU model or a host name).
struct Scoped {
  std::string pattern;     // "RTX PRO 6000", "10de:2bb5", "gpu-node-1*"
  nlohmann::json changes;  // the same keys as the policy's own acceptance keys
};

struct AcceptancePolicy {
  nlohmann::json base = nlohmann::json::object();  // the policy's own acceptance keys
  std::vector<Scoped> models;
  std::vector<Scoped> hosts;
  std::string source = "defaults";  // the file it came from
};

// The keys of a policy file that belong to acceptance (the others belong to the gate).
const std::vector<std::string>& acceptance_keys();

// Reads the acceptance keys of a policy object (others ignored: the caller checks them), each
// value checked now so a bad file fails before any measurement. InputError "<key>: problem".
AcceptancePolicy acceptance_from_json(const nlohmann::json& j, const std::string& source);

// The settings for one run: defaults, then the policy's own keys, then every model override
// matching one of `gpu_models` ("NVIDIA H200", with "10de:2335" ids beside them), then every
// host override whose glob matches `hostname`. `applied` lists which overrides applied.
Settings settings_for(const AcceptancePolicy& p, const std::vector<std::string>& gpu_models,
                      const std::string& hostname, std::vector<std::string>* applied = nullptr);

// The defaults as a policy file would write them (docs and a test keep them in step).
nlohmann::json default_thresholds_json();

}  // namespace p2p::accept
