#include "cli/hw_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "common/exit_codes.hpp"
#include "common/json_text.hpp"
#include "hardware/describe.hpp"

namespace p2p::cli {
namespace {

struct HwOptions {
  std::string model;
  std::string format = "text";
};

int run_hw(const HwOptions& o, bool show) {
  const hw::KnowledgeBase& kb = hw::builtin_knowledge_base();
  if (show) {
    const hw::GpuModel& m = hw::model_named(kb, o.model);
    std::cout << (o.format == "json" ? json_text(hw::show_json(kb, m)) + "\n"
                                     : hw::show_text(kb, m));
  } else {
    std::cout << (o.format == "json" ? json_text(hw::list_json(kb)) + "\n" : hw::list_text(kb));
  }
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace

Command add_hw_command(CLI::App& root) {
  auto o = std::make_shared<HwOptions>();
  CLI::App* hw = root.add_subcommand(
      "hw",
      "The hardware knowledge base the verdicts use: GPU models, their links, P2P policy and "
      "published figures, each with its source (hw list, hw show)");
  hw->require_subcommand(1);
  CLI::App* list =
      hw->add_subcommand("list", "Every GPU model the knowledge base knows, one a line");
  list->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  CLI::App* show = hw->add_subcommand(
      "show",
      "One GPU model whole: names and PCI IDs, link, NVLink, BAR1, open kernel module, P2P policy, "
      "published figures and the floors derived from them, each with its source");
  show->add_option(
          "model", o->model,
          "The model: its key (hw list), a name as nvidia-smi or a peer tool prints it, or "
          "its PCI ID (10de:2bb5)")
      ->required();
  show->add_option("--format", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return Command{hw, [o, hw] { return run_hw(*o, hw->got_subcommand("show")); }};
}

}  // namespace p2p::cli
