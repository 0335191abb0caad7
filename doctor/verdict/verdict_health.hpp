// Causes from GPU health and from what the driver says about the GPUs (rules_health.cpp,
// rules_gpu_state.cpp), for the verdict: a failing GPU is named with what NVIDIA says to do, and a
// driver that explains itself is quoted. Internal to p2p_doctor.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

// Appends the health causes to `out` (which already holds the other candidates: a GPU that fell
// off the bus gains NVML's evidence instead of a second cause).
void health_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

// The causes of what only shares or slows a GPU, or keeps CUDA off it by configuration: vGPU
// licence, MIG, other processes, application Xids, throttling, PCIe replays (verdict_usage.cpp).
void usage_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

// A cause with its confidence set from its score, as every cause of the verdict.
Cause scored_cause(std::string id, std::string title, int score, std::vector<std::string> evidence,
                   std::string fix, std::vector<std::string> gpus);

// Causes that mean a GPU is failing: the verdict names their GPUs as failing_gpus.
const std::set<std::string>& failing_gpu_causes();

// Checks whose failure means a GPU is failing (rather than CUDA or P2P being blocked).
const std::set<std::string>& gpu_health_checks();

}  // namespace p2p::doctor
