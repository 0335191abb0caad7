// RAII owner of an hwloc topology loaded with every PCI bridge and device kept: the bridge
// chain is what the PCIe classifier reads. Every hwloc call goes through P2P_CHECK_HWLOC.
#pragma once

#include <hwloc.h>

#include <memory>
#include <string>

namespace p2p::topo {

class HwlocTopology {
 public:
  // From an `lstopo --of xml` file. hwloc's own failures surface as ApiError; callers that
  // read user files turn them into InputError.
  static HwlocTopology from_xml(const std::string& path);
  // From the text of such a file, already read (so a pipe is read once).
  static HwlocTopology from_xml_text(const std::string& text);
  // The running host (Linux sysfs), without the OpenCL/CUDA/GL backends.
  static HwlocTopology from_this_host();

  hwloc_topology_t get() const { return topology_.get(); }

 private:
  struct Destroy {
    void operator()(hwloc_topology* t) const noexcept { hwloc_topology_destroy(t); }
  };
  explicit HwlocTopology(std::unique_ptr<hwloc_topology, Destroy> t) : topology_(std::move(t)) {}
  static std::unique_ptr<hwloc_topology, Destroy> init_keeping_io();

  std::unique_ptr<hwloc_topology, Destroy> topology_;
};

}  // namespace p2p::topo
