#include "session/gate_health.hpp"

#include <algorithm>

#include "doctor/collect/collect.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/verdict/verdict.hpp"

namespace p2p::session {

std::vector<FailingGpu> failing_gpus_of(const doctor::Verdict& v) {
  std::vector<FailingGpu> out;
  for (const auto& bdf : v.failing_gpus) {
    FailingGpu g{bdf, "failing"};
    for (const auto& c : v.causes)
      if (std::find(c.gpus.begin(), c.gpus.end(), bdf) != c.gpus.end()) {
        g.why = c.title;
        break;
      }
    out.push_back(g);
  }
  return out;
}

void block_failing_gpus(topo::GateDecision& d, const topo::TopologySnapshot& t,
                        const std::vector<FailingGpu>& failing) {
  for (const auto& g : failing) {
    topo::GateReason r{"health.gpu", topo::GateVerdict::kBlock, "", {}};
    for (std::size_t i = 0; i < t.gpus.size(); ++i)
      if (t.gpus[i].pci_bus_id == g.pci_bus_id) r.gpus.push_back(i);
    const std::string name =
        r.gpus.empty() ? g.pci_bus_id
                       : "GPU" + std::to_string(r.gpus.front()) + " (" + g.pci_bus_id + ")";
    r.message = name + " is failing: " + g.why + " (p2pcheck doctor has the evidence and the fix)";
    d.reasons.push_back(r);
  }
  if (!failing.empty()) d.passed = false;
}

std::vector<FailingGpu> live_failing_gpus(int probe_timeout_ms) {
  doctor::Facts f;
  f.source = "live (gate)";
  f.pci = doctor::collect_pci("/");
  std::vector<std::string> bdfs;
  if (f.pci.present())
    for (const auto& p : f.pci.value) bdfs.push_back(p.bdf);
  f.kernel = doctor::collect_kernel("/", bdfs);
  f.nvml = doctor::probe_nvml(probe_timeout_ms);
  f.cuda.detail = "not probed by the gate";
  const auto findings = doctor::judge(f);
  return failing_gpus_of(doctor::conclude(f, findings));
}

}  // namespace p2p::session
