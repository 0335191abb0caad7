// The matrices of `nvidia-smi topo -m` and `topo -p2p` captures as printed: column names, one
// row of tokens per device, nothing judged yet. Shared by the strict reader of whole captures
// (topology/nvidia_smi_topo.cpp, for topo --input and the gate) and the reader of pasted fragments
// (import/topo_fragment.cpp, for import), which keeps what a cut capture still tells.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::topo::smi {

// One matrix as printed: the column names, then one row per device.
struct RawMatrix {
  std::size_t header_line = 0;
  std::vector<std::string> devices;   // GPU0.., NIC0.. or old NIC device names, in column order
  std::vector<std::string> affinity;  // affinity columns present, in order
  std::vector<std::pair<std::string, std::vector<std::string>>>
      rows;  // name, the rest of its tokens
};

bool is_affinity_column(const std::string& t);  // "CPU_Affinity", "NUMA_Affinity", "GPU_NUMA_ID"
bool is_p2p_code(const std::string& t);         // OK, CNS, GNS, TNS, NS, DR, U

// Every "GPU0 ..." header of the lines and the rows under it.
std::vector<RawMatrix> find_matrices(const std::vector<std::string>& lines);

// A P2P status matrix: its off-diagonal cells are status codes (or, with one GPU, no affinity
// columns and the -p2p legend right after it).
bool is_p2p_matrix(const RawMatrix& m, const std::vector<std::string>& lines);

std::optional<topo::PathClass> cell_class(const std::string& cell);  // "SOC" is SYS
int nvlink_links(const std::string& cell);                           // "NV18" -> 18
std::size_t gpu_columns(const RawMatrix& m);  // the leading GPU0, GPU1, ... columns

// "  NIC0: mlx5_0" lines of the NIC legend.
std::map<std::string, std::string> nic_legend(const std::vector<std::string>& lines);

// The capability named on a line shortly before a -p2p matrix (`nvidia-smi topo -p2p w`,
// `--p2pstatus=rw`), not above line `floor`; "read" where none says. InputError "<source>: ..."
// for a letter nvidia-smi has not.
std::string capability_before(const std::vector<std::string>& lines, std::size_t header,
                              std::size_t floor, const std::string& source);

// The -p2p status of matrix `m` into `out`; what is wrong with it ("row GPU1 has 1 cells, 2
// expected") when it is cut or mangled.
std::optional<std::string> p2p_status_of(const RawMatrix& m, const std::vector<std::string>& lines,
                                         std::size_t floor, const std::string& source,
                                         topo::P2pStatus& out);

}  // namespace p2p::topo::smi
