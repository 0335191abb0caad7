#include "document/figure_key.hpp"

#include "common/byte_size.hpp"

namespace p2p::doc {

std::string figure_key(const BandwidthResult& r) {
  return r.case_name + " " + r.src + "->" + r.dst + (r.part.empty() ? "" : " " + r.part) + " " +
         format_bytes(r.bytes, ByteStyle::kCompact);
}

std::string figure_key(const LatencyResult& r) { return r.case_name + " " + r.src + "->" + r.dst; }

std::string figure_key(const CollectiveResult& r, const std::string& section) {
  std::string key = section + "nccl " + r.collective + " " + r.dtype + " " +
                    placement_word(r.in_place) + " " + std::to_string(r.nranks) + "r";
  if (r.src_rank && r.dst_rank)
    key += " " + std::to_string(*r.src_rank) + "->" + std::to_string(*r.dst_rank);
  return key + " " + format_bytes(r.size_bytes, ByteStyle::kCompact) +
         (r.nranks <= 1 ? " algbw" : " busbw");
}

}  // namespace p2p::doc
