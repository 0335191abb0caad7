// VfioFacts <-> JSON, kept apart from facts_json.cpp: the section was added within version 1.
#include "common/strict_json.hpp"
#include "doctor/facts_json_parts.hpp"
#include "doctor/vfio_facts.hpp"

namespace p2p::doctor {

namespace {

using nlohmann::json;

json reading_to_json(const GpudirectReading& r) {
  const auto& c = r.capability;
  return {{"bdf", r.bdf},
          {"state", to_string(c.state)},
          {"clique", optional_json(c.clique)},
          {"offset", optional_json(c.offset)},
          {"detail", c.detail}};
}

GpudirectReading reading_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  GpudirectReading r;
  auto& c = r.capability;
  in.get("bdf", r.bdf);
  const auto state = topo::gpudirect_state_named(in.get<std::string>("state"));
  if (!state)
    throw InputError(in.path("state") + ": '" + in.get<std::string>("state") + "' is not one of " +
                     topo::gpudirect_state_words());
  c.state = *state;
  in.opt("clique", c.clique);
  in.opt("offset", c.offset);
  in.get("detail", c.detail);
  in.finish();
  std::string key;
  const std::string problem = topo::gpudirect_problem(c, key);
  if (!problem.empty()) throw InputError(in.path(key) + ": " + problem);
  return r;
}

json group_to_json(const IommuGroup& g) {
  json members = json::array();
  for (const auto& m : g.members) members.push_back({{"bdf", m.bdf}, {"class", m.class_code}});
  return {{"gpu", g.gpu}, {"group", optional_json(g.group)}, {"members", members}};
}

IommuGroupMember member_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  IommuGroupMember m;
  in.get("bdf", m.bdf);
  in.get("class", m.class_code);
  in.finish();
  return m;
}

IommuGroup group_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  IommuGroup g;
  in.get("gpu", g.gpu);
  in.opt("group", g.group);
  g.members = strict_list<IommuGroupMember>(in.at("members"), in.path("members"), member_from_json);
  in.finish();
  return g;
}

}  // namespace

bool VfioFacts::checked() const {
  return gpudirect.seen != Seen::kNotChecked || iommu_groups.seen != Seen::kNotChecked;
}

json vfio_to_json(const VfioFacts& v) {
  return {{"gpudirect", write_observed(v.gpudirect,
                                       [](const std::vector<GpudirectReading>& list) {
                                         json a = json::array();
                                         for (const auto& r : list) a.push_back(reading_to_json(r));
                                         return a;
                                       })},
          {"iommu_groups", write_observed(v.iommu_groups, [](const std::vector<IommuGroup>& list) {
             json a = json::array();
             for (const auto& g : list) a.push_back(group_to_json(g));
             return a;
           })}};
}

VfioFacts vfio_from_json(const json& j, const std::string& where) {
  StrictReader in(j, where);
  VfioFacts v;
  v.gpudirect = read_observed<std::vector<GpudirectReading>>(
      in.at("gpudirect"), in.path("gpudirect"), [](const json& list, const std::string& w) {
        return strict_list<GpudirectReading>(list, w, reading_from_json);
      });
  v.iommu_groups = read_observed<std::vector<IommuGroup>>(
      in.at("iommu_groups"), in.path("iommu_groups"), [](const json& list, const std::string& w) {
        return strict_list<IommuGroup>(list, w, group_from_json);
      });
  in.finish();
  return v;
}

}  // namespace p2p::doctor
