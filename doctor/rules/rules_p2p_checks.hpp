// The checks of the P2P group (rules::p2p), one file per subject: IOMMU and ACS
// (rules_iommu_acs.cpp), what NVML reports per pair and the peer copy (rules_peer_pairs.cpp),
// Fabric Manager and persistence (rules_daemons.cpp). Internal to p2p_doctor.
#pragma once

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor::rules {

Finding check_iommu(const Facts& f);           // iommu
Finding check_acs(const Facts& f);             // pcie.acs
Finding check_p2p_status(const Facts& f);      // p2p.status
Finding check_peer_copy(const Facts& f);       // p2p.copy
Finding check_fabric_manager(const Facts& f);  // fabric_manager
Finding check_persistence(const Facts& f);     // persistence

}  // namespace p2p::doctor::rules
