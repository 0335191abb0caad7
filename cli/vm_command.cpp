#include "cli/vm_command.hpp"

#include <iostream>
#include <memory>

#include "cli/validators.hpp"
#include "common/json_text.hpp"
#include "common/text.hpp"
#include "session/vm_run.hpp"

namespace p2p::cli {

namespace {

struct VmOptions {
  session::VmPlanRequest plan;
  std::string verify_facts;
  session::VmCompareRequest compare;
  std::vector<std::string> three;  // vm compare BEFORE AFTER HOST
  std::string format = "text";
};

int print(const session::VmRunOutcome& o, const std::string& format) {
  // The text carries values of the VM's config (its name, its arguments): written for a terminal.
  std::cout << (format == "json" ? o.json() + "\n" : terminal_text(o.text())) << std::flush;
  return o.exit_code;
}

// What the plan is made from: the host's topology, facts and P2P captures, and for the guest's
// NCCL topology file the guest's bus ids.
void add_plan_inputs(CLI::App* plan, VmOptions& o) {
  plan->add_option(
          "--topology", o.plan.topology,
          "The host's topology (hwloc XML, snapshot or nvidia-smi topo -m capture) instead of this host")
      ->type_name("FILE");
  plan->add_option(
          "--facts", o.plan.facts,
          "Doctor facts saved on the host or an LXC container on it (doctor --save-facts); live with no "
          "--topology")
      ->type_name("FILE");
  plan->add_option(
          "--p2p", o.plan.p2p,
          "The host's P2P captures, evidence per GPU pair: nvidia-smi topo -p2p, "
          "p2pBandwidthLatencyTest, simpleP2P, nvbandwidth, p2pcheck bench results or doctor facts")
      ->type_name("FILE...");
  plan->add_option(
          "--nccl-topo", o.plan.nccl_topo,
          "Write the guest's NCCL topology file (NCCL_TOPO_FILE): the host's real PCIe tree, "
          "each GPU by its guest bus id")
      ->type_name("FILE");
  plan->add_option(
          "--guest", o.plan.guest,
          "The guest's topology (p2pcheck topo --json in the guest): its GPUs' bus ids, in bus "
          "order, for --nccl-topo")
      ->type_name("FILE");
  plan->add_option(
          "--guest-bus-ids", o.plan.guest_bus_ids,
          "The GPUs' bus ids in the guest, comma-separated, in the VM's GPU order (for --nccl-topo)")
      ->type_name("LIST")
      ->check(not_empty("the guest bus ids"));
}

void add_plan(CLI::App& vm, VmOptions& o) {
  CLI::App* plan = vm.add_subcommand(
      "plan",
      "Plan GPUDirect cliques for the GPUs of one VM from the host's topology and doctor facts, check the VM "
      "config's traps, print the settings for Proxmox, libvirt, QEMU and cloud-hypervisor. Exit 0 every GPU "
      "in a clique and no trap, 1 otherwise");
  add_plan_inputs(plan, o);
  plan->add_option(
          "--gpus", o.plan.gpus,
          "The VM's GPUs: host indexes or PCI addresses, comma-separated (default: the VM config's, "
          "else all)")
      ->check(not_empty("host GPU indexes or PCI addresses"));
  plan->add_option(
          "--vm-config", o.plan.vm_config,
          "The VM's config to check: /etc/pve/qemu-server/<vmid>.conf or libvirt domain XML")
      ->type_name("FILE");
  plan->add_option(
          "--hypervisor", o.plan.hypervisor,
          "Which hypervisor's lines to print (default: the --vm-config's kind, else proxmox "
          "on a Proxmox host, else all four; --format json holds all four)")
      ->check(CLI::IsMember({"proxmox", "libvirt", "qemu", "cloud-hypervisor"}));
  // Proxmox's VM ids are 100 to 999999999; the id is printed into the qm lines the user pastes
  // into a root shell, so nothing else may pass ("105; rm -rf /").
  plan->add_option("--vmid", o.plan.vmid,
                   "Proxmox VM id for the qm set lines (default: from the config's name)")
      ->check(count_between(100, 999999999))
      ->check(CLI::Validator(
          [](std::string& id) -> std::string {
            return id.size() > 1 && id[0] == '0'
                       ? "`" + id + "`: a Proxmox VM id is written without a leading zero"
                       : "";
          },
          ""));
  plan->add_option("--first-clique", o.plan.first_clique,
                   "The first clique ID to hand out (0-15, default 0)")
      ->check(count_between(0, 15));
  plan->add_option("--format", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
}

void add_compare(CLI::App& vm, VmOptions& o) {
  CLI::App* cmp = vm.add_subcommand(
      "compare",
      "Put a VM's topology before cliques, after, and its host's side by side, pair by pair. Exit 0, or 1 when a "
      "clique claims P2P the host refuses or a pair the host carries is still lost");
  cmp->add_option("BEFORE AFTER HOST", o.three, "The three topologies")->required()->expected(3);
  cmp->add_option("--p2p-before", o.compare.p2p_before, "nvidia-smi topo -p2p capture of BEFORE")
      ->type_name("FILE");
  cmp->add_option("--p2p-after", o.compare.p2p_after, "nvidia-smi topo -p2p capture of AFTER")
      ->type_name("FILE");
  cmp->add_option("--p2p-host", o.compare.p2p_host, "nvidia-smi topo -p2p capture of HOST")
      ->type_name("FILE");
  cmp->add_option(
         "--verify", o.compare.verify,
         "vm verify --format json from the guest after cliques: each pair proven or broken beside the plan")
      ->type_name("FILE");
  cmp->add_option("--format", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
}

void add_verify(CLI::App& vm, VmOptions& o) {
  CLI::App* verify = vm.add_subcommand(
      "verify",
      "In the guest: copy between every pair of each GPUDirect clique (the source GPU writes, the destination "
      "reads back) and mark each pair proven or broken. Exit 0 every pair proven, 1 otherwise");
  verify
      ->add_option("--facts", o.verify_facts,
                   "Doctor facts saved in the guest (doctor --save-facts) instead of a live run")
      ->type_name("FILE");
  verify->add_option("--format", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
}

}  // namespace

Command add_vm_command(CLI::App& root) {
  auto o = std::make_shared<VmOptions>();
  CLI::App* vm =
      root.add_subcommand("vm", "GPUDirect cliques for VFIO VMs: vm plan, vm compare, vm verify");
  vm->require_subcommand(1);
  add_plan(*vm, *o);
  add_compare(*vm, *o);
  add_verify(*vm, *o);
  return Command{vm, [o, vm] {
                   if (vm->got_subcommand("plan"))
                     return print(session::run_vm_plan(o->plan), o->format);
                   if (vm->got_subcommand("verify"))
                     return print(session::run_vm_verify(o->verify_facts), o->format);
                   o->compare.before = o->three.at(0);
                   o->compare.after = o->three.at(1);
                   o->compare.host = o->three.at(2);
                   return print(session::run_vm_compare(o->compare), o->format);
                 }};
}

}  // namespace p2p::cli
