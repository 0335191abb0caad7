#include "document/figure_key.hpp"

#include "common/byte_size.hpp"

namespace p2p::doc {

std::string figure_key(const BandwidthResult& r) {
  return r.case_name + " " + r.src + "->" + r.dst + (r.part.empty() ? "" : " " + r.part) + " " +
         format_bytes(r.bytes, ByteStyle::kCompact);
}

std::string figure_key(const LatencyResult& r) { return r.case_name + " " + r.src + "->" + r.dst; }

}  // namespace p2p::doc
