#include "cluster/host_lines.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"
#include "document/bench_document.hpp"
#include "report/run_lines.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::cluster {
namespace {

// The doctor's verdict is kept whole for the fleet text; the fields the merge reads are checked
// here, where the line is known, not when the fleet is judged.
nlohmann::json checked_verdict(const nlohmann::json& record) {
  if (!record.is_object()) throw InputError("`record` of a verdict line: expected an object");
  for (const char* key : {"state", "headline"}) {
    if (record.contains(key) && !record.at(key).is_string())
      throw InputError(std::string("verdict `") + key + "`: expected a string, got " +
                       record.at(key).type_name());
  }
  return record;
}

void add_record(HostRun& run, const std::string& kind, const nlohmann::json& record) {
  if (kind == "run_start") {
    run.tool_version = record.value("tool_version", "");
  } else if (kind == "host") {
    run.tool_version = record.get<doc::NodeHost>().tool_version;
  } else if (kind == "verdict") {
    run.doctor_verdict = checked_verdict(record);
  } else if (kind == "step") {
    run.steps.push_back(record.get<StepRecord>());
  } else if (kind == "topology") {
    run.topology = topo::snapshot_from_json(record, "topology");
  } else if (kind == "gate_reason") {
    if (run.gate_block.empty() &&
        record.at("verdict").get<topo::GateVerdict>() == topo::GateVerdict::kBlock)
      run.gate_block = record.at("message").get<std::string>();
  } else if (kind == "gate") {
    run.gate_passed = record.at("passed").get<bool>();
  } else if (kind == "bandwidth") {
    run.figures.push_back(doc::fleet_figure(record.get<doc::BandwidthResult>()));
  } else if (kind == "latency") {
    run.figures.push_back(doc::fleet_figure(record.get<doc::LatencyResult>()));
  } else if (kind == "run_end") {
    run.ended = true;
    run.exit_code = checked_integer<int>(record.at("exit_code"), "exit_code", 0, 255);
    // The run's own verdict (node, bench, check write it): its caveats go to the fleet.
    const auto verdict = record.find("verdict");
    if (verdict != record.end() && verdict->is_object() && verdict->contains("caveats"))
      run.caveats = verdict->at("caveats").get<std::vector<doc::Caveat>>();
  }
  // finding and any kind a later version adds: nothing the fleet verdict reads.
}

}  // namespace

const std::vector<std::string>& node_steps() {
  static const std::vector<std::string> steps = {"doctor", "topo", "gate", "bench"};
  return steps;
}

std::string HostRun::last_step() const {
  if (!steps.empty()) return steps.back().name;
  return lines > 0 ? "start" : "none";
}

void add_host_line(HostRun& run, const std::string& line, std::size_t line_number) {
  const std::string where = run.source + ":" + std::to_string(line_number) + ": ";
  const nlohmann::json j = parse_json_text(line, run.source + ":" + std::to_string(line_number));
  try {
    if (!j.is_object() || !j.contains("schema") || j["schema"] != "p2pcheck.jsonl")
      throw InputError(
          "not a p2pcheck.jsonl line (written by --jsonl of p2pcheck node, bench, check)");
    const int version = checked_integer<int>(j.at("version"), "version", 0);
    if (version != report::kJsonLinesVersion)
      throw InputError("p2pcheck.jsonl version " + std::to_string(version) +
                       " is not supported (this p2pcheck reads " +
                       std::to_string(report::kJsonLinesVersion) + ")");
    const std::string host = j.at("host").get<std::string>();
    if (run.hostname.empty()) {
      run.hostname = host;
    } else if (!host.empty() && host != run.hostname) {
      throw InputError("host `" + host + "` in a file of host `" + run.hostname +
                       "`: one file holds one host");
    }
    if (run.started_utc.empty()) run.started_utc = j.value("utc", "");
    add_record(run, j.at("kind").get<std::string>(), j.at("record"));
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + json_error_tail(e.what()));
  }
  ++run.lines;
}

HostRun read_host_lines(const std::string& text, const std::string& source) {
  HostRun run;
  run.source = source;
  std::size_t start = 0, number = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const bool complete = end != std::string::npos;
    const std::string line = text.substr(start, complete ? end - start : std::string::npos);
    ++number;
    start = complete ? end + 1 : text.size();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (complete) {
      add_host_line(run, line, number);
      continue;
    }
    // No newline: the writer was stopped inside this line (a kill, a lost node) or just before
    // its newline. A line that parses is kept; anything else is what a cut write leaves.
    try {
      add_host_line(run, line, number);
    } catch (const InputError&) {
      run.notes.push_back("line " + std::to_string(number) + " cut short (" +
                          std::to_string(line.size()) +
                          " bytes without a newline): the writer was stopped while writing it");
    }
  }
  return run;
}

HostRun read_host_lines_file(const std::string& path) {
  return read_host_lines(read_text_file(path), path);
}

std::vector<HostRun> read_host_files(const std::vector<std::string>& files, std::size_t max_bytes) {
  std::vector<HostRun> hosts;
  std::size_t bytes = 0;
  for (const auto& f : files) {
    std::string text;
    try {
      text = read_text_file(f);
    } catch (const std::runtime_error& e) {  // InputError or IoError: missing, a directory, EIO
      hosts.push_back(unreadable_host(f, e.what()));
      continue;
    }
    bytes += text.size();
    if (bytes > max_bytes)
      throw InputError(
          f + ": with the files before it, more than " + std::to_string(max_bytes >> 20) +
          " MiB of node lines, beyond what one merge reads (docs/inputs-and-outputs.md)");
    try {
      hosts.push_back(read_host_lines(text, f));
    } catch (const InputError& e) {
      hosts.push_back(unreadable_host(f, e.what()));
    }
  }
  return hosts;
}

HostRun unreadable_host(const std::string& source, const std::string& reason) {
  HostRun h;
  h.source = source;
  h.unreadable = "its lines could not be read: " + reason;
  return h;
}

}  // namespace p2p::cluster
