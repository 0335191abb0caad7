#include "infer/document.hpp"

#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/json_util.hpp"
#include "infer/groups.hpp"
#include "nccl/dtype.hpp"

namespace p2p::infer {

namespace {

template <class T>
std::optional<T> optional_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<T>();
}

nlohmann::json message_json(const Message& m) {
  return {{"name", message_name(m)},
          {"phase", to_string(m.phase)},
          {"tokens", m.tokens},
          {"bytes", m.bytes}};
}

nlohmann::json latency_json(const std::optional<LatencySummary>& l) {
  if (!l) return nullptr;
  return {{"calls", l->calls},     {"min_us", l->min_us}, {"p50_us", l->p50_us},
          {"p90_us", l->p90_us},   {"p99_us", l->p99_us}, {"max_us", l->max_us},
          {"mean_us", l->mean_us}, {"spread", l->spread}};
}

std::optional<LatencySummary> latency_from(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  LatencySummary l;
  l.calls = j.at("calls").get<std::uint64_t>();
  l.min_us = j.at("min_us").get<double>();
  l.p50_us = j.at("p50_us").get<double>();
  l.p90_us = j.at("p90_us").get<double>();
  l.p99_us = j.at("p99_us").get<double>();
  l.max_us = j.at("max_us").get<double>();
  l.mean_us = j.at("mean_us").get<double>();
  l.spread = j.at("spread").get<double>();
  return l;
}

nlohmann::json run_json(const GroupRun& r) {
  nlohmann::json messages = nlohmann::json::array();
  for (const MessageResult& m : r.messages) {
    messages.push_back({{"message", m.message},
                        {"phase", to_string(m.phase)},
                        {"tokens", m.tokens},
                        {"bytes", m.bytes},
                        {"status", m.status},
                        {"detail", m.detail},
                        {"latency", latency_json(m.latency)},
                        {"busbw_gbps", optional_json(m.busbw_gbps)},
                        {"step_us", optional_json(m.step_us)}});
  }
  return {{"p2p_disabled", r.p2p_disabled}, {"messages", messages}, {"problems", r.problems}};
}

GroupRun run_from(const nlohmann::json& j) {
  GroupRun r;
  r.p2p_disabled = j.at("p2p_disabled").get<bool>();
  for (const auto& m : j.at("messages")) {
    MessageResult x;
    x.message = m.at("message").get<std::string>();
    x.phase = parse_phase(m.at("phase").get<std::string>());
    x.tokens = m.at("tokens").get<std::uint64_t>();
    x.bytes = m.at("bytes").get<std::uint64_t>();
    x.status = m.at("status").get<std::string>();
    x.detail = m.at("detail").get<std::string>();
    x.latency = latency_from(m.at("latency"));
    x.busbw_gbps = optional_at<double>(m, "busbw_gbps");
    x.step_us = optional_at<double>(m, "step_us");
    r.messages.push_back(std::move(x));
  }
  r.problems = j.at("problems").get<std::vector<std::string>>();
  return r;
}

nlohmann::json group_json(const GroupResult& g) {
  nlohmann::json ipc = nlohmann::json::array();
  for (const IpcPairResult& p : g.ipc) {
    ipc.push_back({{"writer_rank", p.writer_rank},
                   {"owner_rank", p.owner_rank},
                   {"writer_gpu", p.writer_gpu},
                   {"owner_gpu", p.owner_gpu},
                   {"status", p.status},
                   {"detail", p.detail}});
  }
  return {{"tp", g.tp},
          {"gpus", g.gpus},
          {"pci_bus_ids", g.pci_bus_ids},
          {"signature", g.signature},
          {"worst_path", g.worst_path},
          {"description", g.description},
          {"alike", g.alike},
          {"ipc", ipc},
          {"p2p_on", run_json(g.p2p_on)},
          {"p2p_off", g.p2p_off ? run_json(*g.p2p_off) : nlohmann::json(nullptr)}};
}

GroupResult group_from(const nlohmann::json& j) {
  GroupResult g;
  g.tp = j.at("tp").get<int>();
  g.gpus = j.at("gpus").get<std::vector<int>>();
  g.pci_bus_ids = j.at("pci_bus_ids").get<std::vector<std::string>>();
  g.signature = j.at("signature").get<std::string>();
  g.worst_path = j.at("worst_path").get<std::string>();
  g.description = j.at("description").get<std::string>();
  g.alike = j.at("alike").get<int>();
  for (const auto& p : j.at("ipc")) {
    g.ipc.push_back(IpcPairResult{p.at("writer_rank").get<int>(), p.at("owner_rank").get<int>(),
                                  p.at("writer_gpu").get<int>(), p.at("owner_gpu").get<int>(),
                                  p.at("status").get<std::string>(),
                                  p.at("detail").get<std::string>()});
  }
  g.p2p_on = run_from(j.at("p2p_on"));
  if (!j.at("p2p_off").is_null()) g.p2p_off = run_from(j.at("p2p_off"));
  return g;
}

}  // namespace

void to_json(nlohmann::json& j, const InferDocument& d) {
  const ModelShape& m = d.plan.model;
  nlohmann::json messages = nlohmann::json::array();
  for (const Message& msg : d.plan.messages) messages.push_back(message_json(msg));
  nlohmann::json groups = nlohmann::json::array();
  for (const GroupResult& g : d.groups) groups.push_back(group_json(g));
  nlohmann::json rankings = nlohmann::json::array();
  for (const TpRanking& r : d.rankings) {
    nlohmann::json ranked = nlohmann::json::array();
    for (const RankedGroup& g : r.groups) {
      ranked.push_back({{"group", g.group},
                        {"step_us", optional_json(g.step_us)},
                        {"p2p_off_step_us", optional_json(g.p2p_off_step_us)}});
    }
    rankings.push_back(
        {{"tp", r.tp}, {"message", r.message}, {"groups", ranked}, {"note", r.note}});
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const BudgetVerdict& v : d.verdicts) {
    verdicts.push_back({{"tp", v.tp},
                        {"gpus", v.gpus},
                        {"message", v.message},
                        {"budget_us", v.budget_us},
                        {"us_per_token", optional_json(v.us_per_token)},
                        {"pass", v.pass},
                        {"detail", v.detail}});
  }
  j = {{"schema", "p2pcheck.infer"},
       {"version", InferDocument::kVersion},
       {"started_utc", d.started_utc},
       {"hostname", d.hostname},
       {"wall_s", d.wall_s},
       {"nccl_version", d.nccl_version},
       {"topology_source", d.topology_source},
       {"logical_gpus", d.logical_gpus},
       {"devices", d.devices},
       {"model",
        {{"source", m.source},
         {"name", m.name},
         {"hidden", m.hidden},
         {"layers", m.layers},
         {"dtype", nccl::to_string(m.dtype)},
         {"hidden_key", m.hidden_key},
         {"layers_key", m.layers_key},
         {"dtype_key", m.dtype_key}}},
       {"plan",
        {{"tp_sizes", d.plan.tp_sizes},
         {"calls_per_step", d.plan.calls_per_step},
         {"messages", messages}}},
       {"measure",
        {{"calls", d.measure.calls},
         {"calls_per_graph", d.measure.calls_per_graph},
         {"warmup", d.measure.warmup},
         {"timeout_s", d.measure.timeout_s},
         {"p2p_off", d.measure.p2p_off},
         {"ipc_check", d.measure.ipc_check}}},
       {"ranking_message", d.ranking_message},
       {"groups", groups},
       {"rankings", rankings},
       {"budget_us_per_token", optional_json(d.budget_us_per_token)},
       {"verdicts", verdicts}};
}

void from_json(const nlohmann::json& j, InferDocument& d) {
  if (!j.is_object() || j.value("schema", "") != "p2pcheck.infer") {
    throw InputError("`schema`: expected p2pcheck.infer");
  }
  if (j.value("version", 0) != InferDocument::kVersion) {
    throw InputError("`version`: p2pcheck.infer version " +
                     j.value("version", nlohmann::json()).dump() +
                     " is not supported (this p2pcheck reads version 1)");
  }
  try {
    d.started_utc = j.at("started_utc").get<std::string>();
    d.hostname = j.at("hostname").get<std::string>();
    d.wall_s = j.at("wall_s").get<double>();
    d.nccl_version = j.at("nccl_version").get<std::string>();
    d.topology_source = j.at("topology_source").get<std::string>();
    d.logical_gpus = j.at("logical_gpus").get<int>();
    d.devices = j.at("devices").get<std::vector<int>>();
    const auto& m = j.at("model");
    ModelShape& shape = d.plan.model;
    shape.source = m.at("source").get<std::string>();
    shape.name = m.at("name").get<std::string>();
    shape.hidden = m.at("hidden").get<std::uint64_t>();
    shape.layers = m.at("layers").get<int>();
    shape.dtype = nccl::parse_data_type(m.at("dtype").get<std::string>(), "`model.dtype`");
    shape.hidden_key = m.at("hidden_key").get<std::string>();
    shape.layers_key = m.at("layers_key").get<std::string>();
    shape.dtype_key = m.at("dtype_key").get<std::string>();
    const auto& p = j.at("plan");
    d.plan.tp_sizes = p.at("tp_sizes").get<std::vector<int>>();
    d.plan.calls_per_step = p.at("calls_per_step").get<int>();
    d.plan.messages.clear();
    for (const auto& msg : p.at("messages")) {
      d.plan.messages.push_back(Message{parse_phase(msg.at("phase").get<std::string>()),
                                        msg.at("tokens").get<std::uint64_t>(),
                                        msg.at("bytes").get<std::uint64_t>()});
    }
    const auto& ms = j.at("measure");
    d.measure.calls = ms.at("calls").get<int>();
    d.measure.calls_per_graph = ms.at("calls_per_graph").get<int>();
    d.measure.warmup = ms.at("warmup").get<int>();
    d.measure.timeout_s = ms.at("timeout_s").get<double>();
    d.measure.p2p_off = ms.at("p2p_off").get<bool>();
    d.measure.ipc_check = ms.at("ipc_check").get<bool>();
    d.ranking_message = j.at("ranking_message").get<std::string>();
    d.groups.clear();
    for (const auto& g : j.at("groups")) d.groups.push_back(group_from(g));
    d.rankings.clear();
    for (const auto& r : j.at("rankings")) {
      TpRanking t;
      t.tp = r.at("tp").get<int>();
      t.message = r.at("message").get<std::string>();
      t.note = r.at("note").get<std::string>();
      for (const auto& g : r.at("groups")) {
        RankedGroup x;
        x.group = g.at("group").get<std::size_t>();
        if (x.group >= d.groups.size())
          throw InputError("`rankings`: group " + std::to_string(x.group) + " does not exist");
        x.step_us = optional_at<double>(g, "step_us");
        x.p2p_off_step_us = optional_at<double>(g, "p2p_off_step_us");
        t.groups.push_back(x);
      }
      d.rankings.push_back(std::move(t));
    }
    d.budget_us_per_token = optional_at<std::string>(j, "budget_us_per_token");
    d.verdicts.clear();
    for (const auto& v : j.at("verdicts")) {
      BudgetVerdict x;
      x.tp = v.at("tp").get<int>();
      x.gpus = v.at("gpus").get<std::vector<int>>();
      x.message = v.at("message").get<std::string>();
      x.budget_us = v.at("budget_us").get<double>();
      x.us_per_token = optional_at<double>(v, "us_per_token");
      x.pass = v.at("pass").get<bool>();
      x.detail = v.at("detail").get<std::string>();
      d.verdicts.push_back(std::move(x));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("p2pcheck.infer document: ") + e.what());
  }
}

std::string logical_note(const InferDocument& d) {
  if (d.logical_gpus <= 0) return "";
  const std::string on = format_id_list(d.devices);
  return "LOGICAL RUN: up to " + std::to_string(d.logical_gpus) +
         " rank processes shared CUDA device" + (d.devices.size() > 1 ? "s " : " ") + on +
         ", each its own NCCL host (network transport): the figures measure the tool, not the host's links";
}

namespace {

bool any_message(const InferDocument& d, const std::string& status) {
  for (const auto& g : d.groups) {
    for (const auto& m : g.p2p_on.messages) {
      if (m.status == status) return true;
    }
    if (!g.p2p_off) continue;
    for (const auto& m : g.p2p_off->messages) {
      if (m.status == status) return true;
    }
  }
  return false;
}

bool any_problem(const InferDocument& d) {
  for (const auto& g : d.groups) {
    if (!g.p2p_on.problems.empty() || (g.p2p_off && !g.p2p_off->problems.empty())) return true;
  }
  return false;
}

}  // namespace

int exit_code_of(const InferDocument& d) {
  if (any_message(d, "hang")) return kExitHang;
  if (any_message(d, "error") || any_message(d, "not_run") || any_problem(d)) return kExitRuntime;
  if (any_message(d, "wrong") || any_failed(d.verdicts)) return kExitFailed;
  return kExitOk;
}

}  // namespace p2p::infer
