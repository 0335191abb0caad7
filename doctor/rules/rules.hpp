// The checks: pure functions of the facts. Each produces one Finding; judge() runs them all in
// the order the checklist prints them (where we run, driver, firmware, UVM, device access,
// CUDA/NVML, P2P blockers, PCIe health, environment variables).
#pragma once

#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

std::vector<Finding> judge(const Facts& f);

// The findings' exit code: 1 when any check failed, 0 otherwise (warnings, skips and unknowns
// do not fail a host).
int exit_code_of(const std::vector<Finding>& findings);
// The doctor's exit: 3 (no usable GPU) where its verdict is that the driver is not loaded or
// CUDA cannot work at all, as every other command says it; else exit_code_of(findings).
int exit_code_of(const std::vector<Finding>& findings, const Verdict& verdict);

// Groups of rules, one file each; judge() calls them in order.
namespace rules {
void driver(const Facts& f,
            std::vector<Finding>& out);  // environment, module, binding, GSP, kernel log
void userspace(const Facts& f,
               std::vector<Finding>& out);  // libraries, versions, cuInit, NVML, UVM HMM
void access(const Facts& f, std::vector<Finding>& out);  // device nodes, UVM major, opens, cgroups
void p2p(const Facts& f,
         std::vector<Finding>& out);  // IOMMU, ACS, NVML P2P, fabric manager, persistence
void pcie(const Facts& f, std::vector<Finding>& out);  // link, AER, BAR1, compute mode, env
// Whether the driver supports the GPUs (its own words, NVIDIA's tables), processes, MIG, vGPU
// licence (rules_gpu_state.cpp); memory, recovery, Xids, throttling, replays (rules_health.cpp).
void gpu_state(const Facts& f, std::vector<Finding>& out);
void health(const Facts& f, std::vector<Finding>& out);
}  // namespace rules

}  // namespace p2p::doctor
