#include "topology/policy.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"
#include "common/strict_json.hpp"

namespace p2p::topo {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& key, const std::string& problem) {
  throw InputError(key + ": " + problem);
}

int integer_in(const json& v, const std::string& key, int lo, int hi) {
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    fail(key, "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                  shown_value(v));
  return v.get<int>();
}

PathClass pair_class(const json& v, const std::string& key) {
  // Class names only: "X" is not a pair, and NV<n> counts are not a class.
  const char* const names[] = {"NV", "PIX", "PXB", "PHB", "NODE", "SYS"};
  if (v.is_string()) {
    for (const char* name : names)
      if (v.get<std::string>() == name) return *path_class_from_string(name);
  }
  fail(key, "expected one of \"NV\", \"PIX\", \"PXB\", \"PHB\", \"NODE\", \"SYS\", got " +
                shown_value(v));
}

// Every key is optional; an unknown one (a misspelt key) is refused first, before the values of
// the others are judged.
GatePolicy read_policy(const json& j, const std::vector<std::string>& other_keys) {
  if (!j.is_object())
    throw InputError("expected a JSON object of policy keys, got " + shown_value(j));
  StrictReader in(j, "");
  const json* min_gpus = in.find("min_gpus");
  const json* max_path = in.find("max_path");
  const json* forbid = in.find("forbid");
  const json* min_link = in.find("min_link");
  const json* require_p2p = in.find("require_p2p");
  const json* require_cliques = in.find("require_cliques");
  for (const auto& k : other_keys) in.find(k);
  in.finish();
  GatePolicy p;
  if (const json* v = min_gpus) p.min_gpus = integer_in(*v, "min_gpus", 1, 4096);
  if (const json* v = max_path) p.max_path = pair_class(*v, "max_path");
  if (const json* f = forbid) {
    if (!f->is_array()) fail("forbid", "expected a list of classes, got " + shown_value(*f));
    for (std::size_t i = 0; i < f->size(); ++i)
      p.forbid.push_back(pair_class((*f)[i], "forbid[" + std::to_string(i) + "]"));
  }
  if (const json* l = min_link) {
    if (!l->is_object())
      fail("min_link", "expected {\"gen\": <1..6>, \"width\": <1..32>}, got " + shown_value(*l));
    StrictReader link(*l, "min_link");
    const json* gen = link.find("gen");
    const json* width = link.find("width");
    link.finish();  // a misspelt key is named before the missing one it stands for
    if (gen == nullptr || width == nullptr)
      fail("min_link", "needs both \"gen\" and \"width\", got " + shown_value(*l));
    p.min_link = MinLink{integer_in(*gen, "min_link.gen", 1, 6),
                         integer_in(*width, "min_link.width", 1, 32)};
  }
  if (const json* v = require_p2p) {
    if (!v->is_boolean()) fail("require_p2p", "expected true or false, got " + shown_value(*v));
    p.require_p2p = v->get<bool>();
  }
  if (const json* v = require_cliques) {
    if (!v->is_boolean()) fail("require_cliques", "expected true or false, got " + shown_value(*v));
    p.require_cliques = v->get<bool>();
  }
  return p;
}

}  // namespace

GatePolicy policy_from_json(const json& j, const std::string& source,
                            const std::vector<std::string>& other_keys) {
  try {
    return read_policy(j, other_keys);
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
}

GatePolicy read_policy_file(const std::string& path) {
  return policy_from_json(read_json_file(path), path);
}

void to_json(json& j, const GatePolicy& p) {
  j = json::object();
  if (p.min_gpus) j["min_gpus"] = *p.min_gpus;
  if (p.max_path) j["max_path"] = to_string(*p.max_path);
  if (!p.forbid.empty()) {
    j["forbid"] = json::array();
    for (PathClass c : p.forbid) j["forbid"].push_back(to_string(c));
  }
  if (p.min_link) j["min_link"] = {{"gen", p.min_link->gen}, {"width", p.min_link->width}};
  j["require_p2p"] = p.require_p2p;
  if (p.require_cliques) j["require_cliques"] = true;  // added later: absent keeps older output
}

}  // namespace p2p::topo
