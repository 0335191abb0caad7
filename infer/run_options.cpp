#include "infer/run_options.hpp"

#include "common/error.hpp"
#include "doctor/collect/live_topology.hpp"
#include "infer/budget.hpp"
#include "infer/groups.hpp"
#include "infer/model_config.hpp"
#include "infer/plan_text.hpp"
#include "infer/ranking.hpp"
#include "topology/discovery/discovery.hpp"

namespace p2p::infer {
namespace {

InferPlan plan_of(const InferOptions& o) {
  if (o.model.empty() == (o.hidden == 0))
    throw InputError("infer: give the model as --model FILE or --hidden N (one of them)");
  if (!o.model.empty() && o.layers_given)
    throw InputError("infer: --layers goes with --hidden; --model has num_hidden_layers");
  const ModelShape model =
      o.model.empty()
          ? model_shape_from_options(o.hidden, o.layers, o.dtype.empty() ? "bf16" : o.dtype)
          : read_model_config(o.model, o.dtype.empty() ? std::nullopt : std::optional(o.dtype));
  return make_plan(model, o.tp_sizes, o.batches,
                   o.no_prefill ? std::vector<std::uint64_t>{} : o.prefill);
}

// The groups --list shows: logical, from a file, or from this host (a note where it has none).
struct ListedGroups {
  std::vector<TpGroups> groups;
  std::string source;
  std::string note;
};

ListedGroups groups_to_list(const InferOptions& o, const InferPlan& plan) {
  ListedGroups out;
  if (o.logical_gpus > 0) {
    out.source = "logical: " + std::to_string(o.logical_gpus) + " rank processes";
    out.groups = logical_groups(plan.tp_sizes, o.logical_gpus,
                                o.devices.empty() ? std::vector<int>{0} : o.devices);
    return out;
  }
  topo::TopologySnapshot t;
  if (!o.topology.empty()) {
    t = topo::load_topology(o.topology);
    out.source = o.topology;
  } else {
    try {
      t = doctor::live_topology();
      out.source = "this host";
    } catch (const NoGpuError& e) {
      out.source = "this host";
      out.note = std::string("no GPU topology here (") + e.what() +
                 "); --topology FILE shows the groups of another host";
      return out;
    }
  }
  out.source += ", " + std::to_string(t.gpus.size()) + " GPUs";
  out.groups = plan_groups(plan.tp_sizes, t, all_gpus(t), o.max_groups);
  return out;
}

}  // namespace

InferPlan checked_plan(const InferOptions& o) {
  InferPlan plan = plan_of(o);  // returned: moved, not copied
  ranking_message(plan, o.rank_batch);
  if (!o.budget.empty()) parse_budget(o.budget, plan);
  if (o.list && !o.topology.empty() && o.logical_gpus > 0)
    throw InputError("infer: --topology and --logical-gpus exclude each other");
  if (!o.list && !o.topology.empty())
    throw InputError("infer: --topology goes with --list (a run measures this host)");
  return plan;
}

std::string plan_listing(const InferOptions& o, const InferPlan& plan) {
  const ListedGroups g = groups_to_list(o, plan);
  return format_plan(plan, g.groups, g.source, g.note);
}

}  // namespace p2p::infer
