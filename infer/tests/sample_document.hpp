// A results document of three groups on a two-socket host (TP=2 on GPUs 0,1; TP=4 on one socket
// and across both), measured with P2P on and off, one IPC pair failed, the cross-socket group's
// first message hung with its rank's problem, and a 60 us budget: the document, text and verdict
// tests start from it and change what they test.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "document/infer_document.hpp"
#include "infer/budget.hpp"
#include "infer/model_config.hpp"
#include "infer/plan.hpp"
#include "infer/ranking.hpp"
#include "infer/results.hpp"

namespace p2p::infer::sample {

inline GroupResult sample_group(const InferPlan& plan, int tp, std::vector<int> gpus,
                                std::string signature, double p50, double off) {
  GroupResult g;
  g.tp = tp;
  g.gpus = std::move(gpus);
  for (int x : g.gpus) g.pci_bus_ids.push_back("0000:0" + std::to_string(x) + ":00.0");
  g.signature = std::move(signature);
  g.worst_path = "NODE";
  g.description = "one NUMA node (0), worst path NODE";
  g.alike = 3;
  for (const Message& m : plan.messages)
    g.p2p_on.messages.push_back(measured_message(m, tp, plan.calls_per_step, {p50, p50, 2 * p50}));
  g.p2p_off = GroupRun{};
  g.p2p_off->p2p_disabled = true;
  for (const Message& m : plan.messages)
    g.p2p_off->messages.push_back(measured_message(m, tp, plan.calls_per_step, {off}));
  g.ipc = {IpcPairResult{0, 1, g.gpus[0], g.gpus[1], doc::IpcStatus::kOk, ""},
           IpcPairResult{1, 0, g.gpus[1], g.gpus[0], doc::IpcStatus::kFail,
                         "rank 1 could not write: cudaIpcOpenMemHandle: ..."}};
  return g;
}

inline InferDocument sample_document() {
  InferDocument d;
  d.tool_version = "0.1.0";
  d.started_utc = "2026-12-03T13:00:00Z";
  d.hostname = "gpu-host";
  d.wall_s = 12.5;
  d.nccl_version = "2.28.3";
  d.topology_source = "this host (hwloc)";
  d.devices = {0, 1, 2, 3};
  d.plan = make_plan(model_shape_from_options(8192, 80, "bf16"), {2, 4}, {1, 32}, {2048});
  d.measure = MeasureSettings{2000, 100, 20, 60.0, true, true};
  d.ranking_message = "decode_b32";
  d.groups = {sample_group(d.plan, 2, {0, 1}, "NODE x1", 0.2, 0.9),
              sample_group(d.plan, 4, {0, 1, 2, 3}, "NODE x6", 0.3, 1.1),
              sample_group(d.plan, 4, {0, 1, 4, 5}, "NODE x2 + SYS x4", 0.5, 1.5)};
  MessageResult& hung = d.groups[2].p2p_on.messages[0];
  hung.status = doc::MessageStatus::kHang;
  hung.latency.reset();
  hung.step_us.reset();
  hung.busbw_gbps.reset();
  d.groups[2].p2p_on.problems = {"rank 2 hang: decode_b1: no completion"};
  d.rankings = rank_groups(d.plan, d.groups, d.ranking_message, 4);
  d.budget_us_per_token = "60";
  d.verdicts = judge_budget(parse_budget("60", d.plan), d.plan, d.rankings, d.groups);
  return d;
}

}  // namespace p2p::infer::sample
