// The GPUs a check's subject or message names. Checks name the figure they judged in words
// ("ce_unidir_write gpu0->gpu1 256MiB", "h2d_ce host->gpu5 256MiB", "gpu3"); the suspect, the
// per-GPU outcome and the page's pairs to look at all read those words, through these two
// readers only, so they never disagree on which GPUs a check is about. Pure.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>

namespace p2p::doc {

// Every "gpu<digits>" of `text` that stands as a whole word ("gpu5", "host->gpu5",
// "gpu0<->gpu5"), each once however often it appears.
std::set<std::string> gpus_named(const std::string& text);

// The two GPUs of a subject's route, its second word split at "->" or "<->"
// ("ce_unidir_write gpu0->gpu1 256MiB" gives gpu0 and gpu1); nullopt for a subject of one GPU,
// the host or the run, and for a GPU paired with itself.
std::optional<std::pair<std::string, std::string>> gpu_pair_of(const std::string& subject);

}  // namespace p2p::doc
