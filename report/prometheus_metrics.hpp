// What p2pcheck's documents say, as Prometheus gauges named p2pcheck_*, with the label keys
// dcgm-exporter uses for a GPU (Hostname, gpu, pci_bus_id, modelName) so the figures join with
// DCGM's metrics, plus peer_gpu, case and size_bytes. Values are in base units (bytes per
// second, seconds). Pure functions of the documents.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "document/bench_document.hpp"
#include "report/prometheus.hpp"
#include "topology/gate.hpp"

namespace p2p::report {

// A results document (bench or nccl): every verified figure, figure counts by status, the
// gate, whether the run was interrupted, and the run's start as the last-run timestamp.
// InputError "<source>: ..." for a malformed gate or NCCL section.
void add_document_metrics(Exposition& e, const doc::BenchDocument& doc);

// A gate decision (p2pcheck gate --format json): passed 0/1 and the blocking reasons.
void add_gate_metrics(Exposition& e, const topo::GateDecision& d, const std::string& hostname);

// A doctor report (p2pcheck doctor --format json): each check failed 0/1, checks by status.
// InputError "<source>: ..." for another schema.
void add_doctor_metrics(Exposition& e, const nlohmann::json& report, const std::string& hostname,
                        const std::string& source);

// p2pcheck_last_run_timestamp_seconds{Hostname, command}: when `command` last ran here.
void add_last_run(Exposition& e, const std::string& hostname, const std::string& command,
                  double unix_seconds);

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (UTC); nullopt for anything else.
std::optional<double> unix_seconds_of(const std::string& iso8601_utc);

}  // namespace p2p::report
