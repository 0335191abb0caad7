// Message sizes: the default sweep, `--sizes` parsing, display, and how many copies a timed
// batch holds at a given size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/byte_size.hpp"

namespace p2p::bench {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;
constexpr std::uint64_t kGiB = 1024 * kMiB;
constexpr std::uint64_t kMaxSizeBytes = 16 * kGiB;

// Powers of two from `from_bytes` to `to_bytes` inclusive (both powers of two).
std::vector<std::uint64_t> power_of_two_sizes(std::uint64_t from_bytes, std::uint64_t to_bytes);

// 4 KiB, 16 KiB, ..., 256 MiB, then 512 MiB: every fourth power of two shows where a link
// saturates as well as every power does, at half the figures, and the largest is nvbandwidth's
// buffer size, where every route's matrix figure is taken.
std::vector<std::uint64_t> default_sweep_bytes();

// A copy size: p2p::parse_bytes's forms ("4096", "64K", "64KiB", "64kb", "1G"), positive, a
// multiple of 4 bytes (verification checks 32-bit words) and at most 16 GiB.
// Throws InputError("WHAT: `TEXT` ...") naming the offending text.
std::uint64_t parse_size_bytes(const std::string& text, const std::string& what = "--sizes");

// Comma-separated list; result sorted ascending without duplicates.
std::vector<std::uint64_t> parse_size_list(const std::string& text);

// Copies per timed batch: enough that one batch moves about 1 GiB (so the first copy's ramp
// is a negligible part of the sample: 20 ms of PCIe gen5, 1 ms of HBM), at least 4 (512 MiB
// copies still move 2 GiB, as four of nvbandwidth's) and at most 64 (a stream held by the
// latch must be able to take the whole batch without the host blocking in enqueue).
int copies_per_batch(std::uint64_t bytes);

}  // namespace p2p::bench
