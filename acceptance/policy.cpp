#include "acceptance/policy.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/json_util.hpp"
#include "common/strict_json.hpp"
#include "common/text.hpp"
#include "document/case_names.hpp"

namespace p2p::accept {
namespace {

using nlohmann::json;

double positive_number(const json& v, const std::string& where) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
    throw InputError(where + ": expected a positive number, got " + shown_value(v));
  return v.get<double>();
}

// `more_is_better`: a ratio of a figure to what it should be (fail below warn); otherwise a
// latency or a ratio of latencies (fail above warn).
std::optional<Bounds> bounds(const json& v, const std::string& where, bool more_is_better,
                             double scale = 1.0) {
  if (v.is_null()) return std::nullopt;  // the rule is off
  if (!v.is_object())
    throw InputError(where + ": expected {\"warn\": <number>, \"fail\": <number>} or null, got " +
                     shown_value(v));
  StrictReader in(v, where);
  const json& warn = in.at("warn");
  const json& fail = in.at("fail");
  in.finish();
  Bounds b{positive_number(warn, where + ".warn") * scale,
           positive_number(fail, where + ".fail") * scale};
  if (more_is_better ? b.fail > b.warn : b.fail < b.warn)
    throw InputError(where + ": \"fail\" must be " + (more_is_better ? "at most" : "at least") +
                     " \"warn\" (a figure fails only where it already warns)");
  return b;
}

std::uint64_t judged_bytes(const json& v, const std::string& where) {
  // "0" as text is refused like 0 as a number: a size of nothing judges launch-bound copies.
  if (v.is_string() && parse_bytes(v.get<std::string>(), where) > 0)
    return parse_bytes(v.get<std::string>(), where);
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > 0) return v.get<std::uint64_t>();
  throw InputError(where + ": expected a size such as \"16MiB\" or a byte count, got " +
                   shown_value(v));
}

void apply_thresholds(Thresholds& t, const json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": expected an object, got " + shown_value(j));
  StrictReader in(j, where);
  if (const json* v = in.find("min_judged_bytes"))
    t.min_judged_bytes = judged_bytes(*v, in.path("min_judged_bytes"));
  const auto ratio = [&](const char* key, std::optional<Bounds>& out, bool more_is_better) {
    if (const json* v = in.find(key)) out = bounds(*v, in.path(key), more_is_better);
  };
  ratio("link_ceiling", t.link_ceiling, true);
  ratio("link_ceiling_sys", t.link_ceiling_sys, true);
  ratio("p2p_vs_staged", t.p2p_vs_staged, true);
  if (const json* v = in.find("p2p_latency_us"))
    t.p2p_latency_ns = bounds(*v, in.path("p2p_latency_us"), false, 1000.0);
  ratio("bidirectional", t.bidirectional, true);
  ratio("direction_symmetry", t.direction_symmetry, true);
  ratio("class_outlier", t.class_outlier, true);
  ratio("latency_outlier", t.latency_outlier, false);
  ratio("model_reference", t.model_reference, true);
  if (const json* v = in.find("outlier_min_members")) {
    if (!v->is_number_integer() || v->get<long long>() < 2 || v->get<long long>() > 4096)
      throw InputError(in.path("outlier_min_members") + ": expected an integer 2..4096, got " +
                       shown_value(*v));
    t.outlier_min_members = v->get<int>();
  }
  if (const json* v = in.find("spread_warn_pct"))
    t.spread_warn_pct =
        v->is_null() ? std::nullopt
                     : std::optional<double>(positive_number(*v, in.path("spread_warn_pct")));
  in.finish();
}

Floor floor_of(const json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": expected an object, got " + shown_value(j));
  StrictReader in(j, where);
  Floor f;
  f.where = where;
  if (const json* v = in.find("case")) {
    if (!v->is_string() || v->get<std::string>().empty())
      throw InputError(in.path("case") + ": expected a case name, got " + shown_value(*v));
    f.case_name = v->get<std::string>();
    if (!doc::is_bench_case(f.case_name))
      throw InputError(in.path("case") + ": no bench case is named " + shown_value(*v) +
                       " (cases: " + join(doc::bench_case_names()) + ")");
  }
  if (const json* v = in.find("path")) {
    const auto c = v->is_string() ? topo::path_class_from_string(v->get<std::string>())
                                  : std::optional<topo::PathClass>();
    if (!c || *c == topo::PathClass::kSelf)
      throw InputError(
          in.path("path") +
          ": expected one of \"NV\", \"PIX\", \"PXB\", \"PHB\", \"NODE\", \"SYS\", got " +
          shown_value(*v));
    f.path = c;
  }
  if (const json* v = in.find("min_gbps")) f.min_gbps = positive_number(*v, in.path("min_gbps"));
  if (const json* v = in.find("max_us")) f.max_us = positive_number(*v, in.path("max_us"));
  in.finish();
  if (f.min_gbps.has_value() == f.max_us.has_value())
    throw InputError(where + ": give either \"min_gbps\" (bandwidth) or \"max_us\" (latency)");
  // A bound of the other metric than its case's would judge no figure, silently.
  const bool latency_case = f.case_name.rfind("latency_", 0) == 0;
  if (!f.case_name.empty() && latency_case != f.max_us.has_value())
    throw InputError(where + ": case \"" + f.case_name + "\" measures " +
                     (latency_case ? "latency: bound it with \"max_us\""
                                   : "bandwidth: bound it with \"min_gbps\""));
  return f;
}

// The acceptance keys of one object (the policy itself, or one override) onto `s`.
void apply(Settings& s, const json& j, const std::string& where) {
  const std::string prefix = where.empty() ? "" : where + ".";
  if (const auto it = j.find("min_bandwidth"); it != j.end()) {
    Floor f;
    f.min_gbps = positive_number(*it, prefix + "min_bandwidth");
    f.where = prefix + "min_bandwidth";
    s.floors.push_back(f);
  }
  if (const auto it = j.find("thresholds"); it != j.end())
    apply_thresholds(s.thresholds, *it, prefix + "thresholds");
  if (const auto it = j.find("floors"); it != j.end()) {
    if (!it->is_array())
      throw InputError(prefix + "floors: expected a list, got " + shown_value(*it));
    // Each floor is held against every figure, and each judgement is a check of the verdict: a
    // policy of a million floors would need gigabytes. Past the ceiling it is refused.
    if (it->size() > kMaxFloors)
      throw InputError(prefix + "floors: " + std::to_string(it->size()) +
                       " floors, more than the " + std::to_string(kMaxFloors) +
                       " a policy holds (docs/inputs-and-outputs.md)");
    for (std::size_t i = 0; i < it->size(); ++i)
      s.floors.push_back(floor_of((*it)[i], prefix + "floors[" + std::to_string(i) + "]"));
  }
}

std::vector<Scoped> scoped(const json& j, const std::string& key) {
  if (!j.is_object())
    throw InputError(key + ": expected an object of patterns to settings, got " + shown_value(j));
  std::vector<Scoped> out;
  for (const auto& [pattern, changes] : j.items()) {
    const std::string where = key + "." + pattern;
    if (!changes.is_object())
      throw InputError(where + ": expected an object, got " + shown_value(changes));
    StrictReader in(changes, where);
    in.find("min_bandwidth");
    in.find("thresholds");
    in.find("floors");
    in.finish();
    Settings probe;
    apply(probe, changes, where);  // every value checked now, not when a host first matches
    out.push_back({pattern, changes});
  }
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

const std::vector<std::string>& acceptance_keys() {
  static const std::vector<std::string> keys = {"min_bandwidth", "thresholds", "floors", "models",
                                                "hosts"};
  return keys;
}

AcceptancePolicy acceptance_from_json(const json& j, const std::string& source) {
  AcceptancePolicy p;
  p.source = source;
  for (const char* key : {"min_bandwidth", "thresholds", "floors"}) {
    if (const auto it = j.find(key); it != j.end()) p.base[key] = *it;
  }
  Settings probe;
  apply(probe, p.base, "");
  if (const auto it = j.find("models"); it != j.end()) p.models = scoped(*it, "models");
  if (const auto it = j.find("hosts"); it != j.end()) p.hosts = scoped(*it, "hosts");
  return p;
}

Settings settings_for(const AcceptancePolicy& p, const std::vector<std::string>& gpu_models,
                      const std::string& hostname, std::vector<std::string>* applied) {
  Settings s;
  apply(s, p.base, "");
  for (const auto& m : p.models) {
    const bool hit = std::any_of(gpu_models.begin(), gpu_models.end(), [&](const std::string& g) {
      return lower(g).find(lower(m.pattern)) != std::string::npos;
    });
    if (!hit) continue;
    apply(s, m.changes, "models." + m.pattern);
    if (applied) applied->push_back("models." + m.pattern);
  }
  for (const auto& h : p.hosts) {
    if (fnmatch(h.pattern.c_str(), hostname.c_str(), 0) != 0) continue;
    apply(s, h.changes, "hosts." + h.pattern);
    if (applied) applied->push_back("hosts." + h.pattern);
  }
  return s;
}

nlohmann::json default_thresholds_json() {
  const Thresholds t;
  const auto b = [](const std::optional<Bounds>& x, double scale = 1.0) {
    return x ? json{{"warn", x->warn / scale}, {"fail", x->fail / scale}} : json(nullptr);
  };
  return json{{"min_judged_bytes", format_bytes(t.min_judged_bytes, ByteStyle::kCompact)},
              {"link_ceiling", b(t.link_ceiling)},
              {"link_ceiling_sys", b(t.link_ceiling_sys)},
              {"p2p_vs_staged", b(t.p2p_vs_staged)},
              {"p2p_latency_us", b(t.p2p_latency_ns, 1000.0)},
              {"bidirectional", b(t.bidirectional)},
              {"direction_symmetry", b(t.direction_symmetry)},
              {"class_outlier", b(t.class_outlier)},
              {"latency_outlier", b(t.latency_outlier)},
              {"model_reference", b(t.model_reference)},
              {"outlier_min_members", t.outlier_min_members},
              {"spread_warn_pct", t.spread_warn_pct ? json(*t.spread_warn_pct) : json(nullptr)}};
}

}  // namespace p2p::accept
