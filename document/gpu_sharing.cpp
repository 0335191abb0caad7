#include "document/gpu_sharing.hpp"

#include "common/json_util.hpp"

namespace p2p::doc {

void to_json(nlohmann::json& j, const SharingRecord& r) {
  j = {{"shared", r.shared},
       {"checked", r.checked},
       {"notes", r.notes},
       {"other_pids", r.other_pids}};
}

void from_json(const nlohmann::json& j, SharingRecord& r) {
  r.shared = value_at<bool>(j, "shared");
  r.checked = value_at<std::vector<std::string>>(j, "checked");
  r.notes = value_at<std::vector<std::string>>(j, "notes");
  r.other_pids = integers_at<long>(j, "other_pids", 0, 1L << 31);
}

}  // namespace p2p::doc
