#include "document/infer_document.hpp"

#include "common/error.hpp"
#include "common/json_util.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

int checked_infer_version(const json& j) {
  if (!j.is_object() || !j.contains("schema") || j["schema"] != InferDocument::kSchema)
    throw InputError(std::string("`schema`: expected ") + InferDocument::kSchema);
  const json version = j.value("version", json());
  const bool known = version.is_number_integer() &&
                     version.get<int>() >= InferDocument::kOldestReadableVersion &&
                     version.get<int>() <= InferDocument::kVersion;
  if (!known) {
    throw InputError(std::string("`version`: ") + InferDocument::kSchema + " version " +
                     shown_value(version) + " is not supported (this p2pcheck reads versions " +
                     std::to_string(InferDocument::kOldestReadableVersion) + " to " +
                     std::to_string(InferDocument::kVersion) + ")");
  }
  return version.get<int>();
}

// A ranking names its groups by index: each must exist.
void check_ranked_groups(const InferDocument& d) {
  for (const TpRanking& r : d.rankings) {
    for (const RankedGroup& g : r.groups) {
      if (g.group >= d.groups.size())
        throw InputError("`rankings`: group " + std::to_string(g.group) + " does not exist");
    }
  }
}

void plan_from(const json& j, InferPlan& plan) {
  plan.model = j.at("model").get<ModelShape>();
  const json& p = j.at("plan");
  plan.tp_sizes = value_at<std::vector<int>>(p, "tp_sizes");
  plan.calls_per_step = value_at<int>(p, "calls_per_step");
  plan.messages = p.at("messages").get<std::vector<InferMessage>>();
}

// What version 2 added: the gate, the sharing check, the interruption and the verdict.
void run_state_from(const json& j, InferDocument& d) {
  d.tool_version = j.at("tool_version").get<std::string>();
  d.gate = j.at("gate").get<GateRecord>();
  d.skip_gate = j.at("skip_gate").get<bool>();
  d.gpu_sharing = optional_at<SharingRecord>(j, "gpu_sharing");
  d.interrupted = j.at("interrupted").get<std::string>();
  d.verdict = optional_at<RunVerdict>(j, "verdict");
}

}  // namespace

void to_json(json& j, const InferDocument& d) {
  j = json::object();
  write_schema_header(j, InferDocument::kSchema, InferDocument::kVersion);
  j["tool_version"] = d.tool_version;
  j["started_utc"] = d.started_utc;
  j["hostname"] = d.hostname;
  j["wall_s"] = d.wall_s;
  j["nccl_version"] = d.nccl_version;
  j["topology_source"] = d.topology_source;
  j["logical_gpus"] = d.logical_gpus;
  j["devices"] = d.devices;
  j["gate"] = d.gate;
  j["skip_gate"] = d.skip_gate;
  j["model"] = d.plan.model;
  j["plan"] = {{"tp_sizes", d.plan.tp_sizes},
               {"calls_per_step", d.plan.calls_per_step},
               {"messages", d.plan.messages}};
  j["measure"] = d.measure;
  j["ranking_message"] = d.ranking_message;
  j["groups"] = d.groups;
  j["rankings"] = d.rankings;
  j["budget_us_per_token"] = optional_json(d.budget_us_per_token);
  j["verdicts"] = d.verdicts;
  j["gpu_sharing"] = optional_json(d.gpu_sharing);
  j["interrupted"] = d.interrupted;
  j["verdict"] = optional_json(d.verdict);
}

void from_json(const json& j, InferDocument& d) {
  const int version = checked_infer_version(j);
  d = InferDocument{};
  try {
    d.started_utc = j.at("started_utc").get<std::string>();
    d.hostname = j.at("hostname").get<std::string>();
    d.wall_s = j.at("wall_s").get<double>();
    d.nccl_version = j.at("nccl_version").get<std::string>();
    d.topology_source = j.at("topology_source").get<std::string>();
    d.logical_gpus = value_at<int>(j, "logical_gpus");
    d.devices = value_at<std::vector<int>>(j, "devices");
    plan_from(j, d.plan);
    d.measure = j.at("measure").get<MeasureSettings>();
    d.ranking_message = j.at("ranking_message").get<std::string>();
    d.groups = j.at("groups").get<std::vector<GroupResult>>();
    d.rankings = j.at("rankings").get<std::vector<TpRanking>>();
    check_ranked_groups(d);
    d.budget_us_per_token = optional_at<std::string>(j, "budget_us_per_token");
    d.verdicts = j.at("verdicts").get<std::vector<BudgetVerdict>>();
    if (version >= 2) run_state_from(j, d);
  } catch (const json::exception& e) {
    throw InputError(std::string(InferDocument::kSchema) + " document: " + e.what());
  }
}

}  // namespace p2p::doc
