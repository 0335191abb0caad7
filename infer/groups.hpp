// Which GPUs a tensor-parallel group of a given size could run on, as the topology tells it.
// Pure: a function of the snapshot, tested on the repository's 8-GPU fixtures.
//
// Groups are told apart by their path-class signature: how many of their pairs are NV18, PIX,
// NODE, SYS..., and how many NUMA nodes they span. Two groups with one signature look alike to
// NCCL (it picks rings and trees by link class), so one representative of each is measured, not
// all C(8,4) = 70 groups of four: on a two-socket host with four GPUs per socket that is three
// groups for TP=4 (one socket; three and one; two and two).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::infer {

struct GpuGroup {
  std::vector<int> gpus;   // indexes into the snapshot's GPUs, ascending
  std::string signature;   // "NODE x6", "NODE x2 + SYS x4", "NV18 x28": pair classes, best first
  std::string worst_path;  // the class of its worst pair ("SYS"); "" for one GPU
  std::vector<int> numa_nodes;  // the distinct known NUMA nodes of its GPUs
  bool numa_known = false;      // every GPU's NUMA node is known
  int alike = 1;  // groups of this size with the same signature (this one stands for them)
  std::string description;  // "one NUMA node (0), worst path NODE"
};

// Representatives of every distinct signature among the `tp`-GPU subsets of `eligible` (indexes
// into t.gpus; the GPUs this run may use), best first: by worst pair, then by the sum of the
// pair classes, then by NUMA nodes spanned, then by the GPU indexes. The representative of a
// signature is its first subset in lexicographic order. At most `max_groups` are returned; when
// there are more, the best max_groups - 1 and the worst one, so the contrast stays visible.
// Empty when `tp` exceeds the eligible GPUs. Subsets are enumerated up to a bound: 200,000
// subsets (enough for 16 GPUs at any size) or 20 million pair looks, whichever comes first (a
// 256-GPU host at TP 128: its first 2,460 subsets in lexicographic order).
std::vector<GpuGroup> candidate_groups(const topo::TopologySnapshot& t, int tp,
                                       const std::vector<int>& eligible, std::size_t max_groups);

// How many subsets of `tp` GPUs candidate_groups looks at, at most.
std::size_t subset_bound(int tp);

// The candidates of every TP size, as --list prints them and the run measures them.
struct TpGroups {
  int tp = 0;
  std::vector<GpuGroup> groups;
  // Why there are none ("needs 8 GPUs, 4 usable"); where there are, that the subsets looked at
  // were bounded; else "".
  std::string note;
};
std::vector<TpGroups> plan_groups(const std::vector<int>& tp_sizes, const topo::TopologySnapshot& t,
                                  const std::vector<int>& eligible, std::size_t max_groups);

// A logical run (--logical-gpus N): for each TP size up to N, one group of logical GPUs 0..tp-1,
// placed round-robin on `devices` (so ranks share a device). Its signature says "logical".
std::vector<TpGroups> logical_groups(const std::vector<int>& tp_sizes, int logical_gpus,
                                     const std::vector<int>& devices);

// Every GPU of the snapshot.
std::vector<int> all_gpus(const topo::TopologySnapshot& t);

// "0,1": the ids as given, comma-separated (NUMA nodes, CUDA devices).
std::string format_id_list(const std::vector<int>& ids);

// "0-3", "0,1,4,5", "0-2,6": ascending ids, runs of three or more folded.
std::string format_gpu_list(const std::vector<int>& ids);

}  // namespace p2p::infer
