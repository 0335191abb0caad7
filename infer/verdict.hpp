// The one verdict of an `infer` run (document/verdict.hpp): a pure function of its results
// document and what the run knew beside it. Every message of every group, with P2P on and off,
// is a check (wrong data and a hang fail, a hang also marks the run hung; an error or a message
// no rank reported errs), as is every CUDA IPC pair that failed, every rank process that did not
// end well, every budget verdict, and the run's own state: interrupted, a GPU shared with another
// process, a gate overridden with --skip-gate, logical GPUs, fewer GPUs than --expect-gpus.
#pragma once

#include <optional>

#include "document/infer_document.hpp"
#include "document/verdict.hpp"

namespace p2p::infer {

struct InferRunFacts {
  int interrupt_signal = 0;        // the signal that stopped the run, 0 = none
  std::optional<int> expect_gpus;  // --expect-gpus
  int gpus_seen = 0;               // CUDA devices this host showed
};

// judged_by "infer". After an interruption, what the run did not reach is skipped, not an
// error: the interruption itself is the reason.
doc::RunVerdict judge_infer(const doc::InferDocument& d, const InferRunFacts& facts);

}  // namespace p2p::infer
