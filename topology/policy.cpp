#include "topology/policy.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace p2p::topo {

namespace {

using nlohmann::json;

const char* const kKeys[] = {"min_gpus", "max_path", "forbid", "min_link", "require_p2p"};
const char* const kLinkKeys[] = {"gen", "width"};

[[noreturn]] void fail(const std::string& source, const std::string& key,
                       const std::string& problem) {
  throw InputError(source + ": key `" + key + "`: " + problem);
}

std::string shown(const json& v) {
  const std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

template <std::size_t N>
void reject_unknown_keys(const json& j, const char* const (&known)[N], const std::string& source,
                         const std::string& prefix) {
  for (const auto& kv : j.items()) {
    if (std::find_if(std::begin(known), std::end(known),
                     [&](const char* k) { return kv.key() == k; }) != std::end(known))
      continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    fail(source, prefix + kv.key(), "unknown key (known: " + list + ")");
  }
}

int integer_in(const json& v, const std::string& source, const std::string& key, int lo, int hi) {
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    fail(source, key,
         "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
             shown(v));
  return v.get<int>();
}

PathClass pair_class(const json& v, const std::string& source, const std::string& key) {
  // Class names only: "X" is not a pair, and NV<n> counts are not a class.
  const char* const names[] = {"NV", "PIX", "PXB", "PHB", "NODE", "SYS"};
  if (v.is_string()) {
    for (const char* name : names)
      if (v.get<std::string>() == name) return *path_class_from_string(name);
  }
  fail(source, key,
       "expected one of \"NV\", \"PIX\", \"PXB\", \"PHB\", \"NODE\", \"SYS\", got " + shown(v));
}

}  // namespace

GatePolicy policy_from_json(const json& j, const std::string& source) {
  if (!j.is_object())
    throw InputError(source + ": expected a JSON object of policy keys, got " + shown(j));
  reject_unknown_keys(j, kKeys, source, "");
  GatePolicy p;
  if (j.contains("min_gpus")) p.min_gpus = integer_in(j["min_gpus"], source, "min_gpus", 1, 4096);
  if (j.contains("max_path")) p.max_path = pair_class(j["max_path"], source, "max_path");
  if (j.contains("forbid")) {
    const json& f = j["forbid"];
    if (!f.is_array()) fail(source, "forbid", "expected a list of classes, got " + shown(f));
    for (std::size_t i = 0; i < f.size(); ++i)
      p.forbid.push_back(pair_class(f[i], source, "forbid[" + std::to_string(i) + "]"));
  }
  if (j.contains("min_link")) {
    const json& l = j["min_link"];
    if (!l.is_object())
      fail(source, "min_link", "expected {\"gen\": <1..6>, \"width\": <1..32>}, got " + shown(l));
    reject_unknown_keys(l, kLinkKeys, source, "min_link.");
    if (!l.contains("gen") || !l.contains("width"))
      fail(source, "min_link", "needs both \"gen\" and \"width\", got " + shown(l));
    p.min_link = MinLink{integer_in(l["gen"], source, "min_link.gen", 1, 6),
                         integer_in(l["width"], source, "min_link.width", 1, 32)};
  }
  if (j.contains("require_p2p")) {
    if (!j["require_p2p"].is_boolean())
      fail(source, "require_p2p", "expected true or false, got " + shown(j["require_p2p"]));
    p.require_p2p = j["require_p2p"].get<bool>();
  }
  return p;
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
}

}  // namespace p2p::topo
