// The terminal tables of a bench results document: a header (host, GPUs, how figures were
// taken), the matrices at the largest size, the size sweeps and the latency matrix. CUDA-free:
// the same tables come from a measured run and from a document read back.
#pragma once

#include <string>

#include "document/bench_document.hpp"

namespace p2p::report {

std::string render_text_tables(const doc::BenchDocument& doc);

}  // namespace p2p::report
