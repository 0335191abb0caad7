// The CUDA IPC check as the rank processes report it, and the per-pair verdict. Pure, so the CPU
// tests check the merge from hand-written lines.
//
// What serving engines check before they turn on their own P2P all-reduce: every rank exports a
// buffer (cudaIpcGetMemHandle); every other rank maps it (cudaIpcOpenMemHandle) and writes its
// own byte pattern into its slot from its own GPU; the owner reads each slot back. A pair passes
// when the writer could map and write and the owner read exactly the writer's pattern.
#pragma once

#include <string>
#include <vector>

#include "infer/results.hpp"

namespace p2p::infer {

struct IpcLine {
  std::string side;  // "write" (reported by the writer) | "read" (reported by the owner)
  int writer = 0;
  int owner = 0;
  doc::IpcStatus status = doc::IpcStatus::kOk;  // ok | fail
  std::string detail;
};

// What a rank reports of its side of a pair: ok without a reason, fail with one.
inline doc::IpcStatus ipc_status_of(const std::string& why) {
  return why.empty() ? doc::IpcStatus::kOk : doc::IpcStatus::kFail;
}

// A single line of JSON, `"kind": "ipc"`, with its newline: it goes into the rank's results file
// (rank_merge.hpp), whose reader skips kinds it does not know.
std::string to_line(const IpcLine& l);

// The ipc lines of a rank's file; other kinds and unreadable lines are skipped.
std::vector<IpcLine> parse_ipc_lines(const std::string& text);

// The byte writer `w` writes into owner `o`'s slot: distinct for every ordered pair of up to 16
// ranks and never 0 (the owner clears its buffer to 0 first, so an unwritten slot cannot pass).
unsigned char ipc_pattern(int writer, int owner);

// Every ordered pair of `gpus.size()` ranks (writer-major). A write failure wins (the owner then
// read zeros for the same reason); else the owner's read decides; a pair nobody reported is
// not_run, saying which rank stayed silent.
std::vector<IpcPairResult> merge_ipc(const std::vector<int>& gpus,
                                     const std::vector<IpcLine>& lines);

bool all_ipc_ok(const std::vector<IpcPairResult>& pairs);

}  // namespace p2p::infer
