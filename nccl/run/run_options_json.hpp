// The run options as a JSON document: how a sweep is handed to the processes that run it (the
// rank processes, the P2P-off half of --compare-p2p-off), so they measure exactly what the
// parent planned without rebuilding command-line flags. Everything but the test hook
// `before_case`.
#pragma once

#include <nlohmann/json.hpp>

#include "nccl/run/runner.hpp"

namespace p2p::nccl {

std::string to_string(BufferAllocator a);  // "auto" | "ncclMemAlloc" | "cudaMalloc"

void to_json(nlohmann::json& j, const MeasureOptions& o);
void from_json(const nlohmann::json& j, MeasureOptions& o);
void to_json(nlohmann::json& j, const RunOptions& o);    // schema p2pcheck.nccl_run_options v1
void from_json(const nlohmann::json& j, RunOptions& o);  // InputError for another schema/version

}  // namespace p2p::nccl
