#include "infer/targets.hpp"

#include <map>

#include "infer/groups.hpp"
#include "nccl/placement.hpp"

namespace p2p::infer {
namespace {

GroupResult described(int tp, const GpuGroup& g) {
  GroupResult r;
  r.tp = tp;
  r.signature = g.signature;
  r.worst_path = g.worst_path;
  r.description = g.description;
  r.alike = g.alike;
  return r;
}

std::string bus_id_of(const std::vector<std::string>& bus_ids, int ordinal) {
  return ordinal >= 0 && static_cast<std::size_t>(ordinal) < bus_ids.size()
             ? bus_ids[static_cast<std::size_t>(ordinal)]
             : "";
}

}  // namespace

std::vector<Target> logical_targets(const InferPlan& plan, int logical_gpus,
                                    const std::vector<int>& devices,
                                    const std::vector<std::string>& bus_ids) {
  std::vector<Target> out;
  for (const TpGroups& tg : logical_groups(plan.tp_sizes, logical_gpus, devices)) {
    for (const GpuGroup& g : tg.groups) {
      Target t;
      t.result = described(tg.tp, g);
      t.result.gpus = g.gpus;
      for (const nccl::RankSlot& s : nccl::place_ranks(tg.tp, devices).ranks) {
        t.devices.push_back(s.device);
        t.host_ids.push_back(s.host_id);
        t.result.pci_bus_ids.push_back(bus_id_of(bus_ids, s.device));
      }
      out.push_back(std::move(t));
    }
  }
  return out;
}

HostTargets host_targets(const InferPlan& plan, const topo::TopologySnapshot& t,
                         const std::vector<int>& devices, const std::vector<std::string>& bus_ids,
                         std::size_t max_groups) {
  std::map<std::string, int> ordinal_of;
  for (int d : devices) ordinal_of[bus_id_of(bus_ids, d)] = d;
  ordinal_of.erase("");
  std::vector<int> eligible;
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    if (ordinal_of.count(t.gpus[i].pci_bus_id) != 0) eligible.push_back(static_cast<int>(i));
  }
  HostTargets out;
  out.usable = static_cast<int>(eligible.size());
  for (const TpGroups& tg : plan_groups(plan.tp_sizes, t, eligible, max_groups)) {
    for (const GpuGroup& g : tg.groups) {
      Target target;
      target.result = described(tg.tp, g);
      for (int idx : g.gpus) {
        const std::string& bus = t.gpus.at(static_cast<std::size_t>(idx)).pci_bus_id;
        target.devices.push_back(ordinal_of.at(bus));
        target.host_ids.emplace_back();
        target.result.gpus.push_back(ordinal_of.at(bus));
        target.result.pci_bus_ids.push_back(bus);
      }
      out.targets.push_back(std::move(target));
    }
  }
  return out;
}

}  // namespace p2p::infer
