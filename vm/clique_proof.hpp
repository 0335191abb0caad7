// `vm verify`, in the guest: is every pair of each GPUDirect clique proven? The hypervisor's
// clique makes the guest driver offer P2P, and nothing checks that the host carries it: writes
// can land in a private mirror and the destination never sees them (NVIDIA/nccl#2335). The
// doctor's peer copy has the source GPU write (a copy engine, then an SM store) and the
// destination's own context read the buffer back; here each pair of a clique is proven (both
// directions arrived intact), broken (one did not) or unproven (not copied). Pure.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "doctor/facts.hpp"

namespace p2p::vm {

struct PairProof {
  int clique = 0;
  std::string a, b;    // bus ids, a < b
  std::string state;   // proven | broken | unproven
  std::string detail;  // the failing direction, or why it was not copied
};

struct CliqueProof {
  static constexpr int kSchemaVersion = 1;
  std::string source;                               // the facts: "live" or the file
  std::map<int, std::vector<std::string>> cliques;  // clique ID -> bus ids
  std::vector<std::string> without;                 // GPUs without a clique
  std::vector<std::string> unread;                  // GPUs whose capability could not be read
  std::vector<PairProof> pairs;                     // every pair inside each clique
  std::vector<std::string> take_out;                // GPUs whose removal leaves the cliques proven
  // 0: every pair of every clique proven; 1: a pair broken or unproven, or no clique at all.
  int exit_code() const;
};

CliqueProof prove_cliques(const doctor::Facts& guest, const std::string& source);

std::string format_proof_text(const CliqueProof& p);
nlohmann::json proof_json(const CliqueProof& p);  // schema p2pcheck.vm_verify v1
// The pairs of a vm verify document, read strictly; InputError "<source>: ..." naming the key.
std::vector<PairProof> proof_pairs_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace p2p::vm
