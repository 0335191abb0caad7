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
  for (PathClass c : {PathClass::kSelf, PathClass::kPix, PathClass::kPxb, PathClass::kPhb, PathClass::kNode,
                      PathClass::kSys}) {
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
