// nccl-tests' -J JSON output (2.17+): one run, its rows with both placements.
#include <limits>

#include "common/json_text.hpp"
#include "common/json_util.hpp"
#include "import/limits.hpp"
#include "import/nccl_tests_fields.hpp"

namespace p2p::import {

namespace {

// The same from the JSON output: `key` of `j` as an integer 0..hi (0 when absent).
template <class T>
T json_whole_number(const nlohmann::json& j, const char* key, T hi, const std::string& source) {
  if (!j.contains(key)) return 0;
  try {
    return checked_integer<T>(j.at(key), key, 0, hi);
  } catch (const InputError& e) {
    throw not_nccl_tests(source, e.what());
  }
}

std::optional<double> json_opt(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null() || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<double>();
}

// "config": the iteration counts, and each device with the host it is on.
void read_config(const nlohmann::json& doc, NcclTestsRun& run, const std::string& source) {
  const nlohmann::json* config = doc.contains("config") ? &doc.at("config") : nullptr;
  if (!config || !config->is_object()) return;
  run.iterations =
      json_whole_number(*config, "iterations", std::numeric_limits<int>::max(), source);
  run.warmup_iterations =
      json_whole_number(*config, "warmup_iters", std::numeric_limits<int>::max(), source);
  if (config->contains("devices") && config->at("devices").is_array()) {
    for (const auto& d : config->at("devices")) {
      run.devices.push_back(d.value("device_info", std::string()));
      run.hostname = d.value("hostname", run.hostname);
    }
  }
}

// One "results" entry: a row per placement it holds (out of place, then in place).
void read_result(const nlohmann::json& r, std::size_t index, NcclTestsRun& run,
                 const std::string& source) {
  NcclTestsRow base;
  if (!r.is_object()) throw not_nccl_tests(source, "a \"results\" entry is not an object");
  base.size_bytes = json_whole_number(r, "size", kMaxDocumentBytes, source);
  base.count = json_whole_number(r, "count", kMaxDocumentBytes, source);
  base.type = r.value("type", std::string());
  base.redop = r.value("redop", std::string());
  const int root = std::atoi(trim(r.value("root", std::string("-1"))).c_str());
  if (root >= 0) base.root = root;
  for (const char* part : {"out_of_place", "in_place"}) {
    if (!r.contains(part) || r.at(part).is_null()) continue;
    const auto& p = r.at(part);
    require_room_for_a_figure(run.rows.size(), source);
    NcclTestsRow row = base;
    row.in_place = std::string(part) == "in_place";
    row.time_us = json_opt(p, "time");
    if (!row.time_us) row.time_us = json_opt(p, "cpu_time");
    row.algbw_gbps = json_opt(p, "alg_bw");
    row.busbw_gbps = json_opt(p, "bus_bw");
    row.wrong = json_opt(p, "nwrong");
    // As in the text table: no time, bandwidth or count is negative.
    const std::pair<const char*, const std::optional<double>*> figures[] = {
        {"time", &row.time_us},
        {"alg_bw", &row.algbw_gbps},
        {"bus_bw", &row.busbw_gbps},
        {"nwrong", &row.wrong}};
    for (const auto& [name, value] : figures)
      if (*value && **value < 0)
        throw not_nccl_tests(source, "results[" + std::to_string(index) + "]." + part + "." + name +
                                         ": " + json_text(nlohmann::json(**value)) +
                                         " is negative: no bandwidth, time or count is");
    run.rows.push_back(std::move(row));
  }
}

}  // namespace

NcclTestsOutput parse_nccl_tests_json(const std::string& text, const std::string& source,
                                      const std::string& collective) {
  NcclTestsOutput out;
  out.format = "json";
  const nlohmann::json doc = parse_json_text(text, source);
  if (!doc.is_object() || !doc.contains("results") || !doc.contains("nccl_version"))
    throw not_nccl_tests(source, "a JSON document without \"nccl_version\" and \"results\"");
  if (doc.at("nccl_version").is_number_integer())
    out.nccl_library_code = doc.at("nccl_version").get<int>();
  NcclTestsRun run;
  run.collective = collective;
  run.collective_source = collective.empty() ? "" : "--collective";
  if (doc.contains("args") && doc.at("args").is_array() && !doc.at("args").empty() &&
      doc.at("args")[0].is_string()) {
    run.collective = collective_of_program(doc.at("args")[0].get<std::string>());
    run.collective_source = "output";
  }
  read_config(doc, run, source);
  if (!doc.at("results").is_array()) throw not_nccl_tests(source, "\"results\" is not a list");
  for (std::size_t i = 0; i < doc.at("results").size(); ++i)
    read_result(doc.at("results")[i], i, run, source);
  if (doc.contains("average_bus_bandwidth") && doc.at("average_bus_bandwidth").is_object())
    run.avg_busbw_gbps = json_opt(doc.at("average_bus_bandwidth"), "bandwidth");
  if (doc.contains("out_of_bounds") && doc.at("out_of_bounds").is_object())
    run.out_of_bounds = json_whole_number(doc.at("out_of_bounds"), "count",
                                          std::numeric_limits<int>::max(), source);
  if (run.rows.empty()) throw not_nccl_tests(source, "\"results\" holds no row");
  require_a_figure(run, source);
  if (run.collective.empty()) run.collective = "unknown";
  out.runs.push_back(std::move(run));
  return out;
}

}  // namespace p2p::import
