#include "topology/gpudirect_capability.hpp"

#include <cstdio>
#include <set>

#include "common/enum_names.hpp"

namespace p2p::topo {

namespace {

constexpr EnumNames<GpudirectState, 4> kGpudirectStates{
    {{GpudirectState::kPresent, "present"},
     {GpudirectState::kAbsent, "absent"},
     {GpudirectState::kUnreadable, "unreadable"},
     {GpudirectState::kMalformed, "malformed"}}};

constexpr std::size_t kHeaderBytes = 0x40;     // the type 0 header; capabilities start after it
constexpr std::size_t kStandardBytes = 0x100;  // the standard config space
constexpr std::size_t kStatusRegister = 0x06;  // PCI_STATUS (low byte)
constexpr unsigned kCapabilityListBit = 0x10;  // PCI_STATUS_CAP_LIST
constexpr std::size_t kCapabilityPointer = 0x34;
constexpr unsigned kVendorSpecificId = 0x09;  // PCI_CAP_ID_VNDR
constexpr unsigned kP2pCapabilityLength = 8;
constexpr int kMaxCapabilities = 48;  // (256 - 64) / 4: more means the list loops

std::string hex(std::size_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%02zx", v);
  return buf;
}

GpudirectCapability with_state(GpudirectState state, std::string detail) {
  GpudirectCapability c;
  c.state = state;
  c.detail = std::move(detail);
  return c;
}

GpudirectCapability cut_short(std::size_t size) {
  return with_state(GpudirectState::kUnreadable,
                    "config space cut at " + std::to_string(size) +
                        " bytes (an unprivileged read of sysfs `config` stops at 64: run as root)");
}

unsigned byte_at(const std::string& config, std::size_t at) {
  return static_cast<unsigned char>(config[at]);
}

bool has_p2p_signature(const std::string& config, std::size_t at) {
  return byte_at(config, at) == kVendorSpecificId && config.compare(at + 3, 3, "P2P") == 0;
}

// The eight bytes of a capability with the P2P signature, judged against the specification.
GpudirectCapability decode(const std::string& config, std::size_t at) {
  const unsigned length = byte_at(config, at + 2);
  const unsigned id_byte = byte_at(config, at + 6);
  const unsigned clique_field = id_byte >> 3;  // bits 7:3, of which bit 7 is reserved
  if (length != kP2pCapabilityLength)
    return with_state(GpudirectState::kMalformed, "P2P capability at " + hex(at) + " has length " +
                                                      std::to_string(length) + ", not 8");
  if (clique_field > kMaxGpudirectClique)
    return with_state(GpudirectState::kMalformed,
                      "P2P capability at " + hex(at) + " holds clique ID " +
                          std::to_string(clique_field) +
                          ": IDs are 0-15 (four bits; bit 7 is reserved)");
  if ((id_byte & 0x7u) != 0 || byte_at(config, at + 7) != 0)
    return with_state(GpudirectState::kMalformed,
                      "P2P capability at " + hex(at) +
                          " sets its version or reserved bits (only version 0 is "
                          "defined)");
  GpudirectCapability c;
  c.state = GpudirectState::kPresent;
  c.clique = static_cast<int>(clique_field);
  c.offset = static_cast<int>(at);
  return c;
}

}  // namespace

const char* to_string(GpudirectState s) { return name_in(kGpudirectStates, s); }

std::optional<GpudirectState> gpudirect_state_named(const std::string& word) {
  return find_in(kGpudirectStates, word);
}

std::string gpudirect_state_words() { return words_in(kGpudirectStates); }

GpudirectCapability read_gpudirect_capability(const std::string& config) {
  if (config.size() < kHeaderBytes) return cut_short(config.size());
  if ((byte_at(config, kStatusRegister) & kCapabilityListBit) == 0)
    return with_state(GpudirectState::kAbsent, "no capability list (status bit 4 clear)");
  std::set<std::size_t> seen;
  std::size_t at = byte_at(config, kCapabilityPointer) & 0xfcu;
  for (int n = 0; at != 0 && n < kMaxCapabilities; ++n) {
    if (at < kHeaderBytes || at >= kStandardBytes)
      return with_state(GpudirectState::kMalformed,
                        "capability pointer " + hex(at) + " outside 0x40-0xff");
    if (at + kP2pCapabilityLength > config.size()) return cut_short(config.size());
    if (!seen.insert(at).second)
      return with_state(GpudirectState::kMalformed, "capability list loops back to " + hex(at));
    if (has_p2p_signature(config, at)) return decode(config, at);
    at = byte_at(config, at + 1) & 0xfcu;
  }
  if (at != 0)
    return with_state(GpudirectState::kMalformed, "capability list longer than 48 entries");
  return with_state(GpudirectState::kAbsent, "");
}

std::string gpudirect_problem(const GpudirectCapability& c, std::string& key) {
  key = "clique";
  if (c.clique && (*c.clique < 0 || *c.clique > kMaxGpudirectClique))
    return std::to_string(*c.clique) + " is outside 0-15 (a clique ID has four bits)";
  if ((c.state == GpudirectState::kPresent) != c.clique.has_value())
    return "a clique ID belongs to state 'present' only";
  key = "offset";
  if (c.offset && (*c.offset < 0 || *c.offset > 0xFFF))
    return std::to_string(*c.offset) +
           " is outside a PCI function's configuration space (0 to 4095)";
  return "";
}

std::string describe_gpudirect(const GpudirectCapability& c) {
  if (c.state == GpudirectState::kPresent && c.clique && c.offset)
    return "clique " + std::to_string(*c.clique) + " (capability at " +
           hex(static_cast<std::size_t>(*c.offset)) + ")";
  if (c.state == GpudirectState::kAbsent) return "no virtual P2P approval capability";
  return to_string(c.state) + (c.detail.empty() ? std::string() : ": " + c.detail);
}

}  // namespace p2p::topo
