// Byte counts as people type them on command lines and read them in tables and names: the one
// parser and the one formatter of sizes.
#pragma once

#include <cstdint>
#include <string>

namespace p2p {

// "8", "64K", "64k", "64KiB", "64kb", "512MiB", "1G", "1gb": a whole number, then (with no blank
// between) nothing or B, K/KB/KiB, M/MB/MiB or G/GB/GiB in any case, each a binary multiple
// (K = 1024) as nccl-tests reads -b/-e. White space around the whole is ignored.
// InputError "WHAT: `TEXT` is not a size (expected e.g. 8, 64K, 1M, 1G)" for anything else,
// including a size beyond 2^64 - 1 bytes.
std::uint64_t parse_bytes(const std::string& text, const std::string& what);

// How a size is written: both use the largest binary unit that divides it exactly (bytes
// otherwise), and differ in where they are read.
enum class ByteStyle {
  kSpaced,   // "64 MiB", "1 TiB", "1000 B": prose, tables and progress lines
  kCompact,  // "64MiB", "1024GiB", "1000B": inside names and keys (benchmark and case names,
             // comparison keys, size columns), one token each; GiB is its largest unit, so
             // the keys of runs and baselines already written keep matching
};
std::string format_bytes(std::uint64_t bytes, ByteStyle style);

}  // namespace p2p
