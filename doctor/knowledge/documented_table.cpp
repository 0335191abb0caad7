// The tests a documented row makes of the facts, and the list of tables.
#include "doctor/knowledge/documented_table.hpp"

#include <map>

namespace p2p::doctor {

namespace {

// A variable the collector did not find is known to be unset: the environment is always read.
const std::vector<FactValue>* values_of(const FactView& view, const std::string& fact,
                                        bool& known) {
  static const std::vector<FactValue> kNone;
  const auto it = view.find(fact);
  known = it != view.end() || fact.rfind("env.", 0) == 0;
  return it == view.end() ? &kNone : &it->second;
}

bool value_matches(const FactValue& v, const FactTest& t) {
  switch (t.op) {
    case FactOp::kIs: return v.value == t.text;
    case FactOp::kIsNot: return v.value != t.text;
    case FactOp::kHas: return v.value.find(t.text) != std::string::npos;
    case FactOp::kLacks: return v.value.find(t.text) == std::string::npos;
    case FactOp::kSet: return true;
    case FactOp::kUnset: return false;
  }
  return false;
}

// How a fact reads in evidence: the call or state it stands for.
std::string label(const std::string& fact) {
  static const std::map<std::string, std::string> kLabels = {
      {"cuda.init", "cuInit"},          {"cuda.context", "context creation"},
      {"cuda.alloc", "cuMemAlloc"},     {"cuda.peer", "a peer-access call"},
      {"nvml.init", "nvmlInit"},        {"nvml.query_errors", "an NVML query"},
      {"cuda.probe", "the CUDA probe"}, {"nvml.probe", "the NVML probe"},
  };
  const auto it = kLabels.find(fact);
  return it == kLabels.end() ? fact : it->second;
}

}  // namespace

std::vector<FactValue> matching_values(const FactView& view, const FactTest& t) {
  bool known = false;
  const auto* values = values_of(view, t.fact, known);
  std::vector<FactValue> out;
  if (t.op == FactOp::kLacks || t.op == FactOp::kUnset) return out;
  for (const auto& v : *values)
    if (value_matches(v, t)) out.push_back(v);
  return out;
}

bool holds(const FactView& view, const FactTest& t) {
  bool known = false;
  const auto* values = values_of(view, t.fact, known);
  if (!known) return false;
  if (t.op == FactOp::kUnset) return values->empty();
  if (t.op == FactOp::kLacks) {
    // Known and set, and no value carries the text: an unset variable lacks nothing.
    if (values->empty()) return false;
    for (const auto& v : *values)
      if (!value_matches(v, t)) return false;
    return true;
  }
  return !matching_values(view, t).empty();
}

std::string describe(const FactTest& t) {
  std::string what = label(t.fact);
  switch (t.op) {
    case FactOp::kIs: return what + " is " + t.text;
    case FactOp::kIsNot: return what + " is not " + t.text;
    case FactOp::kHas: return what + " has \"" + t.text + "\"";
    case FactOp::kLacks: return what + " lacks \"" + t.text + "\"";
    case FactOp::kSet: return what + " is set";
    case FactOp::kUnset: return what + " is not set";
  }
  return what;
}

const std::vector<DocumentedTable>& documented_tables() {
  static const std::vector<DocumentedTable> kTables = {
      cuda_driver_api_table(), nvml_table(),
      gpu_state_table(),       container_toolkit_table(),
      security_module_table(), nccl_environment_table(),
      driver_message_table()};
  return kTables;
}

}  // namespace p2p::doctor
