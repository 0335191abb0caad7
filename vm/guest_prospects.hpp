// A VFIO guest beside its host, pair by pair (GPUs matched by index, PCI bus order: a guest
// renumbers its buses):
//   clique_prospects: which pairs can get P2P back with GPUDirect cliques, and why not the others
//     (the host's path class, or its captured P2P status), for `topo diff VM HOST`;
//   compare_three: the guest before cliques, the guest after, and the host (bare metal or an LXC
//     container on it) in one table: which pairs got P2P back, which are still lost, and which a
//     clique claims although the host refuses them (`vm compare`).
// Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::vm {

struct Prospect {
  std::size_t a = 0, b = 0;
  std::string vm_path, host_path;  // matrix labels on each side
  bool can = false;                // a clique can give this pair P2P back
  bool maybe = false;              // only the host's driver can say (NODE without its status)
  std::string why;
  std::string cliques;  // the guest's cliques of the two GPUs, "0/0"; "" where not read
};

struct Prospects {
  std::vector<Prospect> pairs;
  std::string note;  // why there are none (GPU counts differ, not a VM beside a host)
  int can = 0;
  int maybe = 0;
};

// Empty with a note unless `vm` was taken in a VM and `host` outside one, with as many GPUs.
Prospects clique_prospects(const topo::TopologySnapshot& vm, const topo::TopologySnapshot& host);
std::string format_prospects_text(const Prospects& p);
nlohmann::json prospects_json(const Prospects& p);

struct ThreeWayRow {
  std::size_t a = 0, b = 0;
  std::string before_path, before_p2p;  // P2P: the status code captured, "-" where none
  std::string after_path, after_p2p, after_cliques;
  std::string host_path, host_p2p;
  std::string verdict;  // regained | still lost | no P2P on the host | wrong clique | P2P before
  std::string detail;
  std::string proof;  // vm verify's word on the pair: proven | broken | unproven; "" where none
  std::string host_basis;  // what the host's judgement rests on (PairJudgement::basis)
};

struct ThreeWay {
  std::vector<ThreeWayRow> rows;
  int p2p_before = 0, p2p_after = 0, p2p_host = 0;
  bool wrong = false;  // a clique claims P2P the host refuses
  bool lost = false;   // a pair the host carries still lacks P2P after
  int exit_code() const { return wrong || lost ? 1 : 0; }
};

struct PairProof;

// vm verify's document beside the plan: each pair's proof, matched to `after`'s GPUs by bus id;
// a broken pair is a wrong clique. InputError where `after` has no bus ids (an nvidia-smi
// capture) or the document names a GPU it does not have.
void add_proof(ThreeWay& t, const topo::TopologySnapshot& after,
               const std::vector<PairProof>& proof, const std::string& source);

// InputError when the three do not have the same number of GPUs.
ThreeWay compare_three(const topo::TopologySnapshot& before, const topo::TopologySnapshot& after,
                       const topo::TopologySnapshot& host);
std::string format_three_way_text(const ThreeWay& t, const std::string& before,
                                  const std::string& after, const std::string& host);
// The JSON document in its parts, so the rows are written one at a time (json_text_with_array):
// the document without "pairs", and one row of "pairs".
nlohmann::json three_way_json_head(const ThreeWay& t);
nlohmann::json three_way_row_json(const ThreeWayRow& r);

}  // namespace p2p::vm
