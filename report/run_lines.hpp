// The lines of `--jsonl`: every line is {"schema": "p2pcheck.jsonl", "version": 1, "kind",
// "command", "host", "utc", "record"}, where `record` is the item in its own schema (a bench
// figure as in the results document, a doctor finding as in doctor --format json, a gate
// reason as in gate --format json). A run opens with kind "run_start" and, when it reaches its
// end, closes with "run_end" (exit code and counts): a file without "run_end" is a run that was
// killed, and everything before is what it measured.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "topology/gate.hpp"

namespace p2p::report {

constexpr int kJsonLinesVersion = 1;

nlohmann::json jsonl_line(const std::string& kind, const std::string& command,
                          const std::string& host, const std::string& utc, nlohmann::json record);

// The envelope of every run's lines, at `utc`: run_start carries the tool's version and what the
// command adds (`extra`: the MPI rank, the launch); run_end the exit code and what the command
// adds (counts, the verdict's summary).
nlohmann::json run_start_line(const std::string& command, const std::string& host,
                              const std::string& utc,
                              nlohmann::json extra = nlohmann::json::object());
nlohmann::json run_end_line(const std::string& command, const std::string& host,
                            const std::string& utc, int exit_code,
                            nlohmann::json extra = nlohmann::json::object());

// One line per finding of a doctor report (p2pcheck.doctor.report), then its verdict.
std::vector<nlohmann::json> doctor_lines(const nlohmann::json& report, const std::string& host,
                                         const std::string& utc);

// One line per reason, then the decision.
std::vector<nlohmann::json> gate_lines(const topo::GateDecision& d, const std::string& command,
                                       const std::string& host, const std::string& utc);

// A bench figure (BandwidthResult or LatencyResult JSON) as its line: kind from its schema.
nlohmann::json figure_line(const nlohmann::json& figure, const std::string& host,
                           const std::string& utc);

}  // namespace p2p::report
