// Text captures of `nvidia-smi topo -m` and `nvidia-smi topo -p2p r|w|n|a|p`, as people paste
// them into tickets: tabs or spaces, ANSI underline escapes left in the header, the legend
// present or cut off, NIC rows and columns, with or without the affinity columns. Pure: text in,
// snapshot out; the file name is only used in error messages.
#pragma once

#include <optional>
#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

// True when the text holds a `topo -m` matrix (a header row starting with GPU0 followed by a
// GPU0 row whose cells are path classes). Does not throw.
bool looks_like_nvidia_smi_topo(const std::string& text);
// True when the text holds a `topo -p2p` matrix (cells OK, CNS, GNS, TNS, NS, DR, U, X). Does not
// throw.
bool looks_like_nvidia_smi_p2p(const std::string& text);

// The `topo -m` matrix as a snapshot: source "nvidia-smi"; GPUs in the capture's order with no
// bus id, name or link (unknown); classes from the cells (NV# also sets nvlink_count, and hides
// the PCIe class); CPU and NUMA affinity where the columns are there; NIC rows and columns in
// `nics`, never among the GPUs. A `topo -p2p` matrix in the same text is added as p2p_status.
// InputError "<source>: not an nvidia-smi topo -m capture: <what is wrong>" for anything cut or
// mangled.
topo::TopologySnapshot snapshot_from_nvidia_smi_topo(const std::string& text,
                                                     const std::string& source);

// Every `topo -p2p` matrix in the text (a capture may hold several, e.g. `-p2p r` then `-p2p w`).
// The capability comes from a line before the matrix naming it (`nvidia-smi topo -p2p w`,
// "write"; `-p2p rw`, one matrix for two letters, "read+write"); "read" where the capture does not
// say (`r` is what people run first). InputError "<source>: not an nvidia-smi topo -p2p capture:
// ..." when none is found, one is mangled or names a letter nvidia-smi has not.
std::vector<topo::P2pStatus> p2p_status_from_nvidia_smi(const std::string& text,
                                                        const std::string& source);

// Adds the `topo -p2p` capture to a snapshot; InputError when its GPU count differs.
void add_p2p_status(topo::TopologySnapshot& t, const std::vector<topo::P2pStatus>& status,
                    const std::string& source);

}  // namespace p2p::topo
