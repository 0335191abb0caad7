#include "cli/help_examples.hpp"

#include <algorithm>

#include "cli/exit_codes.hpp"

namespace p2p::cli {
namespace {

// Each command's examples; "  # " starts a comment, lined up when shown. The files they read
// are the ones the help test stands in for them (run.json, policy.json, ...): keep the two
// lists alike.
const std::vector<HelpExamples> kExamples = {
    {"",
     {"p2pcheck doctor  # start here: can CUDA and P2P work on this host?",
      "p2pcheck bench --json run.json  # measure every GPU pair and host link",
      "p2pcheck report run.json --html run.html"}},
    {"doctor",
     {"p2pcheck doctor  # what stops CUDA or P2P here, and the fix",
      "p2pcheck doctor --save-facts host-facts.json  # keep what it read, for a ticket",
      "p2pcheck doctor --facts host-facts.json  # judge facts saved on another host"}},
    {"topo",
     {"p2pcheck topo  # this host's GPUs and each pair's path",
      "p2pcheck topo --input topo.txt  # an nvidia-smi topo -m capture instead",
      "p2pcheck topo --format json --json topo.json"}},
    {"topo diff",
     {"p2pcheck topo diff vm-topo.txt lxc-topo.txt  # what a VM lost against its host"}},
    {"gate",
     {"p2pcheck gate --policy policy.json  # may this host run benchmarks?",
      "p2pcheck gate --input topo.txt --expect golden.json"}},
    {"hw",
     {"p2pcheck hw list  # every GPU model the verdicts know",
      "p2pcheck hw show 10de:2bb5  # one model, its link, P2P policy and floors, with sources"}},
    {"hw list", {"p2pcheck hw list --format json"}},
    {"hw show",
     {"p2pcheck hw show rtx-pro-6000-server", "p2pcheck hw show 10de:2330 --format json"}},
    {"vm",
     {"p2pcheck vm plan --topology lxc-topo.txt --vmid 105",
      "p2pcheck vm compare vm-topo.txt vm-after.json lxc-topo.txt --p2p-host lxc-p2p.txt"}},
    {"vm plan",
     {"p2pcheck vm plan  # on the host: cliques for its GPUs",
      "p2pcheck vm plan --topology lxc-topo.txt --p2p lxc-p2p.txt --gpus 0,1 --vmid 105",
      "p2pcheck vm plan --topology host.xml --gpus 0,1 --nccl-topo guest-topo.xml "
      "--guest-bus-ids 01:00.0,02:00.0  # the guest's NCCL topology file"}},
    {"vm verify",
     {"p2pcheck vm verify  # in the guest, as root: every pair of each clique",
      "p2pcheck vm verify --facts guest-facts.json --format json"}},
    {"vm compare",
     {"p2pcheck vm compare vm-topo.txt vm-after.json lxc-topo.txt --p2p-host lxc-p2p.txt"}},
    {"bench",
     {"p2pcheck bench  # every pair and host link, default sizes",
      "p2pcheck bench --gpus 0,1 --sizes 64M,1G --json run.json",
      "p2pcheck bench --policy policy.json --json run.json --junit run.junit.xml",
      "p2pcheck bench --benchmark_filter='^h2d_'  # only the cases whose names match"}},
    {"nccl",
     {"p2pcheck nccl  # every collective on every GPU",
      "p2pcheck nccl --collectives all_reduce --max-bytes 1G --json nccl.json",
      "p2pcheck nccl --ranks 8 --max-bytes 4M  # 8 ranks on fewer GPUs: code paths, not links"}},
    {"nccl transports", {"p2pcheck nccl transports nccl-info.log  # the transport of each pair"}},
    {"import",
     {"p2pcheck import nvbandwidth.txt all_reduce.txt --json peers.json",
      "p2pcheck import pasted.txt --collective all_reduce --json pasted.json"}},
    {"compare",
     {"p2pcheck compare baseline.json run.json  # exit 1 when a figure regressed or was lost",
      "p2pcheck compare baseline.json run.json --tolerance-pct 3 --junit compare.junit.xml"}},
    {"report",
     {"p2pcheck report run.json --html run.html",
      "p2pcheck report baseline.json run.json --html changes.html  # side by side"}},
    {"export",
     {"p2pcheck export run.json --junit run.junit.xml",
      "p2pcheck export run.json --prom p2pcheck.prom"}},
    {"judge",
     {"p2pcheck judge run.json  # the default acceptance policy",
      "p2pcheck judge run.json --policy policy.json --expect-gpus 8"}},
    {"check",
     {"p2pcheck check --quick --policy policy.json --junit check.junit.xml --prom check.prom",
      "p2pcheck check --quick --brief  # one verdict line, for a scheduler"}},
    {"infer",
     {"p2pcheck infer --model config.json --list  # the groups and messages; no GPU needed",
      "p2pcheck infer --model config.json --tp 2,4 --json infer.json",
      "p2pcheck infer --model config.json --expect-gpus 8 --exclusive --junit infer.junit.xml  # acceptance"}},
    {"node", {"p2pcheck node --jsonl node.jsonl --policy policy.json"}},
    {"merge",
     {"p2pcheck merge node-a.jsonl node-b.jsonl --json fleet.json --junit fleet.junit.xml",
      "p2pcheck merge node-a.jsonl node-b.jsonl --allow-caveat logical  # hosts on logical GPUs pass"}},
    {"cluster",
     {"mpirun -np 4 --hostfile hosts p2pcheck cluster --json fleet.json  # one rank per host",
      "p2pcheck cluster --lines-dir lines --json fleet.json"}},
};

// "Examples:" and one line per example, the comments ("  # why") lined up in one column.
std::string examples_block(const std::vector<std::string>& lines) {
  std::size_t width = 0;
  for (const auto& l : lines)
    width = std::max(width, l.find("  # ") == std::string::npos ? 0 : l.find("  # "));
  std::string out = "Examples:";
  for (const auto& l : lines) {
    const std::size_t hash = l.find("  # ");
    out += "\n  " + (hash == std::string::npos
                         ? l
                         : l.substr(0, hash) + std::string(width - hash, ' ') + l.substr(hash));
  }
  return out;
}

const HelpExamples* examples_of(const std::string& command) {
  for (const auto& e : help_examples()) {
    if (e.command == command) return &e;
  }
  return nullptr;
}

void add_examples_below(CLI::App& app, const std::string& path, const std::string& parent_footer) {
  const std::string own = app.get_footer() == parent_footer ? "" : app.get_footer();
  std::string footer;
  if (const HelpExamples* e = examples_of(path)) footer = examples_block(e->lines);
  footer += (footer.empty() ? "" : "\n\n") + exit_codes_block(path);
  app.footer(footer + (own.empty() ? "" : "\n\n" + own));
  for (CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) {
    add_examples_below(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), own);
  }
}

}  // namespace

const std::vector<HelpExamples>& help_examples() { return kExamples; }

void add_examples(CLI::App& root) { add_examples_below(root, "", ""); }

}  // namespace p2p::cli
