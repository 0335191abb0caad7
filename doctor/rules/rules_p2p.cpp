// What stands between two GPUs, in the order the checklist prints it: IOMMU translation, ACS
// redirection, what NVML reports per pair and whether a copy arrives, the fabric manager on
// NVSwitch systems, and persistence. The checks live in the files rules_p2p_checks.hpp names.
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_p2p_checks.hpp"

namespace p2p::doctor::rules {

void p2p(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_iommu(f));
  out.push_back(check_acs(f));
  out.push_back(check_p2p_status(f));
  out.push_back(check_peer_copy(f));
  out.push_back(check_fabric_manager(f));
  out.push_back(check_persistence(f));
}

}  // namespace p2p::doctor::rules
