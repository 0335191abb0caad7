// The virtual P2P approval capability ("GPUDirect clique") a hypervisor adds to the PCI config
// space of an NVIDIA GPU it passes through. NVIDIA's driver in the guest treats GPUs that carry the
// same clique ID as peers, whatever the emulated PCIe tree says; without it a VFIO guest's flat
// PHB topology gets CHIPSET_NOT_SUPPORTED.
//
// The layout, as QEMU's vfio-pci writes it (hw/vfio/pci-quirks.c, vfio_add_nv_gpudirect_cap, after
// NVIDIA's specification linked there), eight bytes:
//   +0 capability ID 0x09 (vendor specific)   +1 next pointer   +2 length, 8
//   +3 +4 +5 signature 'P' '2' 'P'
//   +6 bits 2:0 version (0), bits 6:3 clique ID (0-15), bit 7 reserved   +7 reserved
// QEMU puts it at 0xC8, or at 0xD4 when the GPU has a capability of its own at 0xC8 (MSI-X on
// Turing and newer), and it ends the capability list. A GPU can carry vendor-specific
// capabilities of its own (0x09 at 0xB4 on many NVIDIA GPUs): only the 'P2P' signature counts.
// Pure: a function of the bytes.
#pragma once

#include <optional>
#include <string>

namespace p2p::topo {

constexpr int kMaxGpudirectClique = 15;  // four bits; QEMU refuses larger IDs

// What the config space says of the capability. Unreadable: the bytes stop before the list does
// (an unprivileged read of sysfs `config` returns 64 bytes). Malformed: a looping list, a bad
// length or reserved bits.
enum class GpudirectState { kPresent, kAbsent, kUnreadable, kMalformed };
const char* to_string(GpudirectState s);  // present | absent | unreadable | malformed
// The state a snapshot or facts file spells `word`; nullopt for another word, which the reader
// names with gpudirect_state_words() ("present, absent, unreadable, malformed").
std::optional<GpudirectState> gpudirect_state_named(const std::string& word);
std::string gpudirect_state_words();

struct GpudirectCapability {
  GpudirectState state = GpudirectState::kUnreadable;
  std::optional<int> clique;  // 0..15, where present
  std::optional<int> offset;  // config-space offset of the capability, where present
  std::string detail;         // why unreadable or malformed; "" otherwise
};

// Walks the standard capability list of a config-space image (the bytes of sysfs `config`).
GpudirectCapability read_gpudirect_capability(const std::string& config);

// What is wrong with a capability a person wrote down (a snapshot or facts file): "" when
// nothing; else the problem, and `key` names the field ("clique"). The state word is checked
// where it is read (gpudirect_state_named).
std::string gpudirect_problem(const GpudirectCapability& c, std::string& key);

// "clique 3 (capability at 0xd4)", "no virtual P2P approval capability", "unreadable: ...".
std::string describe_gpudirect(const GpudirectCapability& c);

}  // namespace p2p::topo
