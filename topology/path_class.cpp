#include <cctype>

#include "topology/snapshot.hpp"

namespace p2p::topo {

std::string to_string(PathClass c) {
  switch (c) {
    case PathClass::kSelf: return "X";
    case PathClass::kNvLink: return "NV";
    case PathClass::kPix: return "PIX";
    case PathClass::kPxb: return "PXB";
    case PathClass::kPhb: return "PHB";
    case PathClass::kNode: return "NODE";
    case PathClass::kSys: return "SYS";
  }
  return "?";
}

std::optional<PathClass> path_class_from_string(const std::string& s) {
  for (PathClass c : {PathClass::kSelf, PathClass::kPix, PathClass::kPxb, PathClass::kPhb,
                      PathClass::kNode, PathClass::kSys}) {
    if (s == to_string(c)) return c;
  }
  if (s.size() >= 2 && s.compare(0, 2, "NV") == 0) {
    for (std::size_t i = 2; i < s.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    return PathClass::kNvLink;
  }
  return std::nullopt;
}

}  // namespace p2p::topo

namespace p2p::topo {

bool pcie_class_known(const TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (!t.pcie_hidden_by_nvlink) return true;
  return a >= t.nvlink_count.size() || b >= t.nvlink_count[a].size() || t.nvlink_count[a][b] == 0;
}

namespace {

// "read", "write" or "read+write" (one matrix for `-p2p rw`): a capture of peer reads and writes.
bool is_read_write(const std::string& capability) {
  return capability == "read" || capability == "write" || capability == "read+write";
}

}  // namespace

std::optional<std::string> p2p_status_of(const TopologySnapshot& t, std::size_t a, std::size_t b) {
  // Peer access is a question of reads and writes; NVLink, atomics and prop captures answer it
  // only where nothing else was captured.
  bool have_read_write = false;
  for (const P2pStatus& s : t.p2p_status) have_read_write |= is_read_write(s.capability);
  std::optional<std::string> seen;
  for (const P2pStatus& s : t.p2p_status) {
    if (have_read_write && !is_read_write(s.capability)) continue;
    if (a >= s.cells.size() || b >= s.cells[a].size()) continue;
    const std::string& code = s.cells[a][b];
    if (!seen || (*seen == "OK" && code != "OK")) seen = code;
  }
  return seen;
}

std::string describe_p2p_status(const std::string& code) {
  static const std::pair<const char*, const char*> kLegend[] = {
      {"X", "self"},
      {"OK", "status OK"},
      {"CNS", "chipset not supported"},
      {"GNS", "GPU not supported"},
      {"TNS", "topology not supported"},
      {"NS", "not supported"},
      {"DR", "disabled by regkey"},
      {"U", "unknown"},
  };
  for (const auto& [c, what] : kLegend)
    if (code == c) return code + " (" + what + ")";
  return code;
}

}  // namespace p2p::topo
