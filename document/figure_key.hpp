// The one name of a bench figure. A verdict's check, a comparison's row and a heatmap's cell all
// name the figure they are about with it, so a reader of one can find the others: the page marks
// a cell by the outcome of the check that names it, the side-by-side page puts the run's own
// reason beside a regression.
#pragma once

#include <string>

#include "document/bench_document.hpp"

namespace p2p::doc {

// "ce_unidir_write gpu0->gpu1 256MiB"; "h2d_d2h_ce host<->gpu0 sum 256MiB" with its part.
std::string figure_key(const BandwidthResult& r);

// "latency_p2p gpu0->gpu1": one latency per route, no size.
std::string figure_key(const LatencyResult& r);

// "nccl all_reduce float32 out_of_place 8r 64MiB busbw"; sendrecv pairs add "0->1" after the
// rank count; one rank's figure is its algbw (every busbw factor is 0 there). `section` heads it
// for the run without P2P ("p2p_off "). The rank count is in the name, so runs on different
// numbers of GPUs never share a figure.
std::string figure_key(const CollectiveResult& r, const std::string& section = "");

}  // namespace p2p::doc
