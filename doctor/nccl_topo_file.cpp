#include "doctor/nccl_topo_file.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "common/strict_json.hpp"
#include "common/text.hpp"
#include "doctor/derived.hpp"
#include "doctor/facts_json_parts.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor {

namespace {

const char* const kTopoFileId = "nccl.topo_file";

// The value of name="..." inside one tag's text; "" where the tag has none.
std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const auto at = tag.find(key);
  if (at == std::string::npos) return "";
  const auto end = tag.find('"', at + key.size());
  return end == std::string::npos ? "" : tag.substr(at + key.size(), end - at - key.size());
}

}  // namespace

std::vector<std::string> nccl_topo_file_gpus(const std::string& xml) {
  std::vector<std::string> out;
  for (auto at = xml.find("<pci "); at != std::string::npos; at = xml.find("<pci ", at + 1)) {
    const auto end = xml.find('>', at);
    if (end == std::string::npos) break;
    const std::string tag = xml.substr(at, end - at);
    if (attribute(tag, "class").rfind("0x03", 0) == 0)
      out.push_back(normalize_bdf(ascii_lower(attribute(tag, "busid"))));
  }
  return out;
}

std::string nccl_conf_topo_file(const std::string& conf) {
  std::istringstream in(conf);
  std::string value;
  for (std::string line; std::getline(in, line);) {
    line = trim(line.substr(0, line.find('#')));
    const auto eq = line.find('=');
    if (eq != std::string::npos && trim(line.substr(0, eq)) == "NCCL_TOPO_FILE")
      value = trim(line.substr(eq + 1));  // the last one, as NCCL's setenv loop leaves it
  }
  return value;
}

nlohmann::json nccl_topo_file_to_json(const NcclTopoFileFacts& t) {
  return {{"path", t.path},
          {"set_by", t.set_by},
          {"gpus", write_observed(t.gpus, [](const auto& v) { return nlohmann::json(v); })}};
}

NcclTopoFileFacts nccl_topo_file_from_json(const nlohmann::json& j, const std::string& where) {
  StrictReader in(j, where);
  NcclTopoFileFacts t;
  in.get("path", t.path);
  in.get("set_by", t.set_by);
  t.gpus = read_observed<std::vector<std::string>>(
      in.at("gpus"), in.path("gpus"), [](const nlohmann::json& v, const std::string& w) {
        return strict_as<std::vector<std::string>>(v, w);
      });
  in.finish();
  return t;
}

std::optional<Finding> judge_nccl_topo_file(const NcclTopoFileFacts& t,
                                            const std::vector<std::string>& here, bool vm) {
  if (!t.checked()) {
    if (!vm || here.size() < 2) return std::nullopt;
    return finding(kTopoFileId, Status::kWarn,
                   "NCCL_TOPO_FILE not set in a VM: NCCL plans its rings and P2P from the "
                   "emulated PCIe tree",
                   {},
                   "on the host: p2pcheck vm plan --nccl-topo guest-topo.xml --guest (this "
                   "guest's p2pcheck topo --json), then install it as the plan says");
  }
  const std::string named = "NCCL_TOPO_FILE=" + t.path + " (" + t.set_by + ")";
  if (!t.gpus.present())
    return finding(
        kTopoFileId, Status::kWarn,
        named + " cannot be read" + (t.gpus.error.empty() ? "" : " (" + t.gpus.error + ")") +
            ": NCCL skips it without a word at the default log level and uses the tree it sees",
        {}, "put the file there, readable by the jobs' user, or unset NCCL_TOPO_FILE");
  if (here.empty())
    return finding(kTopoFileId, Status::kSkip, named + " set; no GPU here to find in it");
  std::vector<std::string> missing, foreign;
  for (const auto& g : here)
    if (std::find(t.gpus.value.begin(), t.gpus.value.end(), g) == t.gpus.value.end())
      missing.push_back(g);
  for (const auto& b : t.gpus.value)
    if (std::find(here.begin(), here.end(), b) == here.end()) foreign.push_back(b);
  std::vector<std::string> ev = {"the file names " + std::to_string(t.gpus.value.size()) +
                                 " GPU(s): " + join(t.gpus.value)};
  if (!foreign.empty()) ev.push_back("not here (NCCL drops them): " + join(foreign));
  if (missing.empty())
    return finding(kTopoFileId, Status::kPass,
                   named + " names every GPU here (" + std::to_string(here.size()) + ")", ev);
  return finding(kTopoFileId, Status::kWarn,
                 named + " does not name " + std::to_string(missing.size()) + " of the " +
                     std::to_string(here.size()) + " GPUs here (" + join(missing) +
                     "): NCCL places them from the emulated tree",
                 ev,
                 "write it again with this guest's bus ids: p2pcheck vm plan --nccl-topo on the "
                 "host with --guest (this guest's p2pcheck topo --json)");
}

namespace rules {

void nccl_topo_file(const Facts& f, std::vector<Finding>& out) {
  std::vector<std::string> here;
  for (const auto& g : gpus(f)) here.push_back(g.bdf);
  if (auto j = judge_nccl_topo_file(f.nccl_topo_file, here, environment(f).kind == "vm"))
    out.push_back(std::move(*j));
}

}  // namespace rules

}  // namespace p2p::doctor
