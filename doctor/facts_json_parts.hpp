// Shared pieces of the facts JSON codec (facts_json.cpp, probes_json.cpp). Internal.
#pragma once

#include <string>
#include <vector>

#include "common/strict_json.hpp"
#include "doctor/facts.hpp"

namespace p2p::doctor {

Seen seen_from_string(const std::string& s, const std::string& where);

// {"state": "present", "value": ...} | {"state": "absent"} |
// {"state": "unreadable", "error": "EACCES"} | {"state": "not_checked"}
template <class T, class Write>
nlohmann::json write_observed(const Observed<T>& o, Write write_value) {
  nlohmann::json j = {{"state", to_string(o.seen)}};
  if (o.present()) j["value"] = write_value(o.value);
  if (o.seen == Seen::kUnreadable) j["error"] = o.error;
  return j;
}

template <class T, class Read>
Observed<T> read_observed(const nlohmann::json& j, const std::string& where, Read read_value) {
  StrictReader in(j, where);
  Observed<T> o;
  o.seen = seen_from_string(in.get<std::string>("state"), in.path("state"));
  if (o.seen == Seen::kPresent) o.value = read_value(in.at("value"), in.path("value"));
  if (o.seen == Seen::kUnreadable) in.get("error", o.error);
  in.finish();
  return o;
}

nlohmann::json cuda_to_json(const CudaProbe& c);
CudaProbe cuda_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json nvml_to_json(const NvmlProbe& n);
NvmlProbe nvml_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json peer_copy_to_json(const PeerCopyProbe& p);
// nvml.devices[].health (health_json.cpp).
nlohmann::json health_to_json(const NvmlHealth& h);
NvmlHealth health_from_json(const nlohmann::json& j, const std::string& where);
PeerCopyProbe peer_copy_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace p2p::doctor
