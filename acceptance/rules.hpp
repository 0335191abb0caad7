// The rules that judge a bench document, one family per file. Each adds its checks (and the
// caveats it finds) to the verdict; none reads anything but the document and the settings.
#pragma once

#include <cstdint>
#include <optional>

#include "acceptance/document_view.hpp"
#include "acceptance/policy.hpp"
#include "document/verdict.hpp"

namespace p2p::accept {

// What the judge is told beside the document.
struct RunFacts {
  std::optional<int> expect_gpus;  // --expect-gpus: the GPUs this host must show
  int interrupt_signal = 0;        // the signal that stopped the run (0: none, or not known)
};

struct Judging {
  const DocumentView& view;
  const Settings& settings;
  const RunFacts& facts;
  doc::RunVerdict& verdict;
};

// rules_run.cpp: what is true of the whole run — interrupted, shared, gate overridden, logical
// GPUs, imported figures, waived figures — and whether every GPU the host has was measured.
void judge_run_state(Judging& j);
// rules_run.cpp: every figure's own status: a verification failure fails, an error errs.
void judge_measurements(Judging& j);
// rules_links.cpp: one-way copy-engine figures against their link's ceiling and the floors.
void judge_link_ceilings(Judging& j);
void judge_floors(Judging& j);
// rules_pairs.cpp: P2P against the same pair staged, P2P latency, both ways against one way,
// and one way against the other.
void judge_p2p(Judging& j);
void judge_directions(Judging& j);
// rules_model.cpp: each figure against its GPU model's floors (hardware/), P2P that is claimed
// but staged, and GPUs without peer access.
// An all_reduce is held to a model's floor only from this size on: below it, bus bandwidth has
// not reached its plateau (docs/acceptance.md).
constexpr std::uint64_t kMinPlateauBytes = 256ull << 20;
// P2P latency at this fraction of the staged path's or more: the copies took the staged path
// (healthy P2P is 0.4-2.3 us against 10-20 us staged).
constexpr double kStagedLatencyRatio = 0.5;
void judge_model_references(Judging& j);
void judge_p2p_in_effect(Judging& j);
void judge_p2p_available(Judging& j);
// rules_outliers.cpp: each figure against the others of its class, and unstable samples.
void judge_outliers(Judging& j);
void judge_stability(Judging& j);
// rules_nccl.cpp: every collective, rank process, host pair and --min-busbw verdict of the NCCL
// section, and the figures that mean nothing (ranks sharing a GPU, one rank).
void judge_nccl(Judging& j, const doc::NcclResultsSection& s);

}  // namespace p2p::accept
