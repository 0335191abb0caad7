// What the verdict's cause families share (defined in verdict_causes.cpp): a check's status, a
// cause built from a finding or from kernel-log lines, and the entry point of each family, which
// candidate_causes calls in a fixed order. Internal to p2p_doctor.
#pragma once

#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

// Whether the check with this id ran and failed (warned).
bool check_failed(const std::vector<Finding>& all, const std::string& id);
bool check_warned(const std::vector<Finding>& all, const std::string& id);

// A cause taken straight from a failed (or warned) check: its summary and evidence.
void from_finding(std::vector<Cause>& out, const std::vector<Finding>& all, const std::string& id,
                  std::string cause_id, std::string title, int score,
                  std::vector<std::string> affected = {});

// Lines as cause evidence: "kernel log: <line>" each.
std::vector<std::string> log_evidence(const std::vector<std::string>& lines);

// The families. Each appends to `out` in its own fixed order: the ranking's sort is stable, so the
// order breaks ties, and some causes look at those already in `out`.

// No driver, a module that cannot load or bind, a GPU the bus lost (verdict_driver_causes.cpp).
void driver_load_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

// GSP firmware that will not boot or stopped answering, UVM broken (verdict_gsp_uvm_causes.cpp).
void gsp_uvm_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

// Between a loaded driver and a working CUDA: libcuda, versions, Fabric Manager, device nodes,
// access, environment, compute mode (verdict_runtime_causes.cpp).
void runtime_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

// What blocks, reroutes or breaks peer traffic: IOMMU, ACS, platforms without P2P, BAR1, links
// (verdict_p2p_causes.cpp).
void p2p_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

}  // namespace p2p::doctor
