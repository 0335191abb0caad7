#include "cli/commands.hpp"

#include "cli/bench_command.hpp"
#include "cli/check_command.hpp"
#include "cli/cluster_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/doctor_command.hpp"
#include "cli/export_command.hpp"
#include "cli/gate_command.hpp"
#include "cli/help_examples.hpp"
#include "cli/hw_command.hpp"
#include "cli/import_command.hpp"
#include "cli/infer_command.hpp"
#include "cli/judge_command.hpp"
#include "cli/merge_command.hpp"
#include "cli/nccl_command.hpp"
#include "cli/node_command.hpp"
#include "cli/report_command.hpp"
#include "cli/topo_command.hpp"
#include "cli/vm_command.hpp"

namespace p2p::cli {

std::vector<Command> add_all_commands(CLI::App& root) {
  std::vector<Command> all;
  all.push_back(add_doctor_command(root));
  all.push_back(add_topo_command(root));
  all.push_back(add_gate_command(root));
  all.push_back(add_vm_command(root));
  all.push_back(add_bench_command(root));
  all.push_back(add_nccl_command(root));
  all.push_back(add_nccl_rank_command(root));
  all.push_back(add_import_command(root));
  all.push_back(add_compare_command(root));
  all.push_back(add_report_command(root));
  all.push_back(add_export_command(root));
  all.push_back(add_judge_command(root));
  all.push_back(add_hw_command(root));
  all.push_back(add_check_command(root));
  all.push_back(add_infer_command(root));
  all.push_back(add_infer_rank_command(root));
  all.push_back(add_node_command(root));
  all.push_back(add_merge_command(root));
  all.push_back(add_cluster_command(root));
  add_examples(root);  // once every command exists: each --help ends with its examples
  return all;
}

}  // namespace p2p::cli
