// The verdict's causes inside a VFIO guest, from the vfio.clique and p2p.status checks: no clique
// (with the host command that writes them), cliques the driver still refuses (the traps), a clique
// whose pairs failed the peer copy (the GPU to take out), or cliques not yet proved.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

void vfio_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out);

// What these causes make of the verdict: degraded (P2P lost or wrong because of the VM's
// configuration), inconclusive (claimed through cliques, not yet proved) or nullopt (nothing).
std::optional<VerdictState> vfio_verdict_state(const std::vector<Cause>& causes);

}  // namespace p2p::doctor
