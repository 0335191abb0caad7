// One host's record of a fleet run: the JSON lines `p2pcheck node` writes as it goes (the
// shapes of report/run_lines.hpp, command "node"), read back. Kinds, in the order a node writes
// them: run_start; host (identity); finding... verdict (doctor); step "doctor"; topology (the
// snapshot); step "topo"; gate_reason... gate; step "gate"; bandwidth/latency (one per figure);
// step "bench"; run_end. A file without run_end is a run that did not reach its end: the host
// has "no result", and its last step line says how far it got. Files of `bench --jsonl` and
// `check --jsonl` read the same way (they have no step lines).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/fleet_lines.hpp"
#include "document/verdict.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

// The node chain, in the order it runs.
const std::vector<std::string>& node_steps();

// The records of the lines are the document's (document/fleet_lines.hpp), under the names
// cluster/ has always used.
using doc::StepRecord;
using Figure = doc::FleetFigure;

struct HostRun {
  std::string source;    // the file the lines came from, or "rank 3" under MPI
  std::string hostname;  // from the lines; "" when none arrived
  std::string tool_version;
  std::string started_utc;
  bool ended = false;  // run_end seen
  std::optional<int> exit_code;
  std::vector<StepRecord> steps;            // completed steps, in order
  nlohmann::json doctor_verdict = nullptr;  // doctor's verdict record (state, headline, causes)
  std::optional<topo::TopologySnapshot> topology;
  std::optional<bool> gate_passed;
  std::string gate_block;  // the first blocking reason's message
  std::vector<Figure> figures;
  std::vector<std::string> notes;    // what the reader had to tolerate
  std::vector<doc::Caveat> caveats;  // of its run_end line's verdict
  // Why its lines could not be read (a missing file, a malformed line): the host has no result,
  // and the rest of the fleet is judged. "" when they were read.
  std::string unreadable;

  // The host's name for people: hostname, else the source.
  std::string name() const { return hostname.empty() ? source : hostname; }
  // The last completed step; "start" when only run_start arrived, "none" when nothing did.
  std::string last_step() const;
  std::size_t lines = 0;  // lines read
};

// Reads one host's lines. A malformed line is InputError "<source>:<line>: <problem>", except a
// last line without its newline that does not parse: that is what a writer killed mid-write
// leaves, and it is dropped with a note. Blank lines are skipped.
HostRun read_host_lines(const std::string& text, const std::string& source);
HostRun read_host_lines_file(const std::string& path);

// The most node lines one merge reads, over every host's file: a host of 8 GPUs writes about
// 600 KB (1,000 figures) and takes about 0.45 MB once read, so 1 GiB of lines is some 1,700
// such hosts in about 0.8 GB (docs/inputs-and-outputs.md, "Limits").
constexpr std::size_t kMaxFleetLineBytes = std::size_t{1} << 30;

// Every host's node lines read from its file, in order. A file that cannot be read, or holds a
// bad line, is that host's "unreadable" (no result), not the fleet's end; InputError naming the
// file that takes the total past `max_bytes`.
std::vector<HostRun> read_host_files(const std::vector<std::string>& files,
                                     std::size_t max_bytes = kMaxFleetLineBytes);

// A host whose lines could not be read, for that reason: it has no result.
HostRun unreadable_host(const std::string& source, const std::string& reason);

// Adds one line (already split, no newline) to `run`; line_number names it in errors.
void add_host_line(HostRun& run, const std::string& line, std::size_t line_number);

}  // namespace p2p::cluster
