// Where p2pcheck runs: bare metal, a virtual machine or a container. This changes how every
// later finding reads (a VFIO guest shows emulated root ports, so PHB on every pair is
// expected there), so the topology snapshot and the doctor both record it.
//
// Two steps, like the rest of the project: read_environment_facts() reads files (under a root
// directory, so fixture trees work) and classify_environment() is a pure function of them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

struct EnvironmentFacts {
  bool cpu_hypervisor_flag = false;      // "hypervisor" in /proc/cpuinfo flags (CPUID.1:ECX[31])
  std::string hypervisor_vendor;         // CPUID leaf 0x40000000 signature ("KVMKVMKVM"), live only
  std::string hypervisor_type;           // /sys/hypervisor/type ("xen")
  std::string dmi_sys_vendor;            // /sys/class/dmi/id/sys_vendor ("QEMU")
  std::string dmi_product_name;          // /sys/class/dmi/id/product_name
  std::string pid1_container;            // container= from /proc/1/environ ("lxc")
  std::string systemd_container;         // /run/systemd/container
  bool dockerenv = false;                // /.dockerenv exists
  bool containerenv = false;             // /run/.containerenv exists (podman)
  std::string self_cgroup;               // /proc/self/cgroup
  std::string nvml_virtualization_mode;  // "Pass-Through", "vGPU", ... where NVML told us
};

// Reads the facts under `root` ("/" for the live host). Missing files are simply absent facts.
// `live` adds what only the running process can see (CPUID).
EnvironmentFacts read_environment_facts(const std::string& root, bool live);

Environment classify_environment(const EnvironmentFacts& facts);

// A VM guest, seen from inside it or from a container inside it (docker in a KVM guest is a
// "container" whose GPUs are still passed through by a hypervisor, so cliques concern it).
bool inside_a_vm(const Environment& e);

void to_json(nlohmann::json& j, const EnvironmentFacts& f);
// Strict (common/strict_json.hpp): every key required, an unknown one refused; errors name
// `where` and the key ("environment: key 'dockerenv' not found").
EnvironmentFacts environment_facts_from_json(const nlohmann::json& j, const std::string& where);
void from_json(const nlohmann::json& j, EnvironmentFacts& f);
void to_json(nlohmann::json& j, const Environment& e);
Environment environment_from_json(const nlohmann::json& j, const std::string& where);
void from_json(const nlohmann::json& j, Environment& e);

}  // namespace p2p::topo
