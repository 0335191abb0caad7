#include "document/infer_records.hpp"

#include "common/json_util.hpp"
#include "document/enum_names.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

constexpr EnumNames<InferPhase, 2> kPhases{
    {{InferPhase::kDecode, "decode"}, {InferPhase::kPrefill, "prefill"}}};

InferPhase phase_at(const json& j) { return parse_json_in(kPhases, j.at("phase"), "phase"); }

}  // namespace

std::string to_string(InferPhase p) { return name_in(kPhases, p); }
InferPhase parse_phase(const std::string& text) { return parse_in(kPhases, text, "phase"); }

std::string message_name(const InferMessage& m) {
  return m.phase == InferPhase::kDecode ? "decode_b" + std::to_string(m.tokens)
                                        : "prefill_t" + std::to_string(m.tokens);
}

const MessageResult* find_message(const GroupRun& run, const std::string& name) {
  for (const MessageResult& m : run.messages) {
    if (m.message == name) return &m;
  }
  return nullptr;
}

void to_json(json& j, const InferMessage& m) {
  j = {{"name", message_name(m)},
       {"phase", to_string(m.phase)},
       {"tokens", m.tokens},
       {"bytes", m.bytes}};
}
void from_json(const json& j, InferMessage& m) {
  m.phase = phase_at(j);
  m.tokens = value_at<std::uint64_t>(j, "tokens");
  m.bytes = value_at<std::uint64_t>(j, "bytes");
}

void to_json(json& j, const ModelShape& m) {
  j = {{"source", m.source},          {"name", m.name},
       {"hidden", m.hidden},          {"layers", m.layers},
       {"dtype", to_string(m.dtype)}, {"hidden_key", m.hidden_key},
       {"layers_key", m.layers_key},  {"dtype_key", m.dtype_key}};
}
void from_json(const json& j, ModelShape& m) {
  m.source = j.at("source").get<std::string>();
  m.name = j.at("name").get<std::string>();
  m.hidden = value_at<std::uint64_t>(j, "hidden");
  m.layers = value_at<int>(j, "layers");
  m.dtype = parse_data_type(j.at("dtype").get<std::string>(), "`model.dtype`");
  m.hidden_key = j.at("hidden_key").get<std::string>();
  m.layers_key = j.at("layers_key").get<std::string>();
  m.dtype_key = j.at("dtype_key").get<std::string>();
}

void to_json(json& j, const LatencySummary& l) {
  j = {{"calls", l.calls},   {"min_us", l.min_us}, {"p50_us", l.p50_us},   {"p90_us", l.p90_us},
       {"p99_us", l.p99_us}, {"max_us", l.max_us}, {"mean_us", l.mean_us}, {"spread", l.spread}};
}
void from_json(const json& j, LatencySummary& l) {
  l.calls = value_at<std::uint64_t>(j, "calls");
  l.min_us = j.at("min_us").get<double>();
  l.p50_us = j.at("p50_us").get<double>();
  l.p90_us = j.at("p90_us").get<double>();
  l.p99_us = j.at("p99_us").get<double>();
  l.max_us = j.at("max_us").get<double>();
  l.mean_us = j.at("mean_us").get<double>();
  l.spread = j.at("spread").get<double>();
}

void to_json(json& j, const MessageResult& m) {
  j = {{"message", m.message},
       {"phase", to_string(m.phase)},
       {"tokens", m.tokens},
       {"bytes", m.bytes},
       {"status", m.status},
       {"detail", m.detail},
       {"latency", optional_json(m.latency)},
       {"busbw_gbps", optional_json(m.busbw_gbps)},
       {"step_us", optional_json(m.step_us)}};
}
void from_json(const json& j, MessageResult& m) {
  m.message = j.at("message").get<std::string>();
  m.phase = phase_at(j);
  m.tokens = value_at<std::uint64_t>(j, "tokens");
  m.bytes = value_at<std::uint64_t>(j, "bytes");
  m.status = j.at("status").get<MessageStatus>();
  m.detail = j.at("detail").get<std::string>();
  m.latency = optional_at<LatencySummary>(j, "latency");
  m.busbw_gbps = optional_at<double>(j, "busbw_gbps");
  m.step_us = optional_at<double>(j, "step_us");
}

void to_json(json& j, const IpcPairResult& p) {
  j = {{"writer_rank", p.writer_rank}, {"owner_rank", p.owner_rank}, {"writer_gpu", p.writer_gpu},
       {"owner_gpu", p.owner_gpu},     {"status", p.status},         {"detail", p.detail}};
}
void from_json(const json& j, IpcPairResult& p) {
  p.writer_rank = value_at<int>(j, "writer_rank");
  p.owner_rank = value_at<int>(j, "owner_rank");
  p.writer_gpu = value_at<int>(j, "writer_gpu");
  p.owner_gpu = value_at<int>(j, "owner_gpu");
  p.status = j.at("status").get<IpcStatus>();
  p.detail = j.at("detail").get<std::string>();
}

void to_json(json& j, const GroupRun& r) {
  j = {{"p2p_disabled", r.p2p_disabled}, {"messages", r.messages}, {"problems", r.problems}};
}
void from_json(const json& j, GroupRun& r) {
  r.p2p_disabled = j.at("p2p_disabled").get<bool>();
  r.messages = j.at("messages").get<std::vector<MessageResult>>();
  r.problems = j.at("problems").get<std::vector<std::string>>();
}

void to_json(json& j, const GroupResult& g) {
  j = {{"tp", g.tp},
       {"gpus", g.gpus},
       {"pci_bus_ids", g.pci_bus_ids},
       {"signature", g.signature},
       {"worst_path", g.worst_path},
       {"description", g.description},
       {"alike", g.alike},
       {"ipc", g.ipc},
       {"p2p_on", g.p2p_on},
       {"p2p_off", optional_json(g.p2p_off)}};
}
void from_json(const json& j, GroupResult& g) {
  g.tp = value_at<int>(j, "tp");
  g.gpus = value_at<std::vector<int>>(j, "gpus");
  g.pci_bus_ids = j.at("pci_bus_ids").get<std::vector<std::string>>();
  g.signature = j.at("signature").get<std::string>();
  g.worst_path = j.at("worst_path").get<std::string>();
  g.description = j.at("description").get<std::string>();
  g.alike = value_at<int>(j, "alike");
  g.ipc = j.at("ipc").get<std::vector<IpcPairResult>>();
  g.p2p_on = j.at("p2p_on").get<GroupRun>();
  g.p2p_off = optional_at<GroupRun>(j, "p2p_off");
}

void to_json(json& j, const RankedGroup& g) {
  j = {{"group", g.group},
       {"step_us", optional_json(g.step_us)},
       {"p2p_off_step_us", optional_json(g.p2p_off_step_us)}};
}
void from_json(const json& j, RankedGroup& g) {
  g.group = value_at<std::size_t>(j, "group");
  g.step_us = optional_at<double>(j, "step_us");
  g.p2p_off_step_us = optional_at<double>(j, "p2p_off_step_us");
}

void to_json(json& j, const TpRanking& r) {
  j = {{"tp", r.tp}, {"message", r.message}, {"groups", r.groups}, {"note", r.note}};
}
void from_json(const json& j, TpRanking& r) {
  r.tp = value_at<int>(j, "tp");
  r.message = j.at("message").get<std::string>();
  r.note = j.at("note").get<std::string>();
  r.groups = j.at("groups").get<std::vector<RankedGroup>>();
}

void to_json(json& j, const BudgetVerdict& v) {
  j = {{"tp", v.tp},
       {"gpus", v.gpus},
       {"message", v.message},
       {"budget_us", v.budget_us},
       {"us_per_token", optional_json(v.us_per_token)},
       {"pass", v.pass},
       {"detail", v.detail}};
}
void from_json(const json& j, BudgetVerdict& v) {
  v.tp = value_at<int>(j, "tp");
  v.gpus = value_at<std::vector<int>>(j, "gpus");
  v.message = j.at("message").get<std::string>();
  v.budget_us = j.at("budget_us").get<double>();
  v.us_per_token = optional_at<double>(j, "us_per_token");
  v.pass = j.at("pass").get<bool>();
  v.detail = j.at("detail").get<std::string>();
}

void to_json(json& j, const MeasureSettings& m) {
  j = {{"calls", m.calls},     {"calls_per_graph", m.calls_per_graph},
       {"warmup", m.warmup},   {"timeout_s", m.timeout_s},
       {"p2p_off", m.p2p_off}, {"ipc_check", m.ipc_check}};
}
void from_json(const json& j, MeasureSettings& m) {
  m.calls = value_at<int>(j, "calls");
  m.calls_per_graph = value_at<int>(j, "calls_per_graph");
  m.warmup = value_at<int>(j, "warmup");
  m.timeout_s = j.at("timeout_s").get<double>();
  m.p2p_off = j.at("p2p_off").get<bool>();
  m.ipc_check = j.at("ipc_check").get<bool>();
}

}  // namespace p2p::doc
