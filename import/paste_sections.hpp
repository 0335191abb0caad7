// Where the tables of a normalised paste are, and which tool printed each: an nccl-tests table
// from its column header, an nvbandwidth matrix under its title or a SUM line, a
// p2pBandwidthLatencyTest matrix under its title, an nvidia-smi topo -m / -p2p matrix under its
// "GPU0 ..." header. A banner is not needed. Consecutive tables of one tool's output form one
// section; another tool's table, or the same tool's next run (its banner again), starts the next.
// Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace p2p::import {

struct PasteSection {
  std::string tool;       // nvbandwidth | nccl-tests | p2pBandwidthLatencyTest | nvidia-smi
  std::size_t begin = 0;  // lines [begin, end): every line of the paste is in one section,
  std::size_t end = 0;    // what comes before a table (banner, device list, prose) with it
};

// The tools, by the names import records; `only_tool` (--tool) is one of them or "".
const std::vector<std::string>& paste_tools();

// Sections in paste order; none when the paste holds no table. `only_tool` keeps that tool's
// tables only.
std::vector<PasteSection> find_sections(const std::vector<std::string>& lines,
                                        const std::string& only_tool = "");

// What find_sections looks for, for the one line that says none was found.
std::string tables_looked_for();

// The tools whose banner or command line the lines hold (each once, in order): a paste of their
// output that ends before its first table, or of a run that printed none.
std::vector<std::string> tools_announced(const std::vector<std::string>& lines);

}  // namespace p2p::import
