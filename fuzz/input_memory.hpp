// How much memory a reader holds for one input, so that a reader whose memory grows faster than
// its input (a square over the ranks a line names) fails the fuzz run even where the process stays
// under libFuzzer's -rss_limit_mb. Counted through the sanitizer allocator's malloc and free hooks
// (the fuzz build always runs under AddressSanitizer).
#pragma once

#include <cstddef>

namespace p2p::fuzz {

// What one input may make a reader hold beyond what it held before: a fixed allowance (lazily
// built tables, the first regex) plus a multiple of the input's size (a JSON document's tree is
// 10-30 times its text). A 64 KiB input of 700 "# Rank" lines made the old nccl-tests reader
// hold a 700 x 700 matrix, about 150 MB: over 96 MiB.
constexpr std::size_t kFixedAllowanceBytes = std::size_t{32} << 20;
constexpr std::size_t kAllowancePerInputByte = 1024;

// Bytes allocated and not yet freed, now; and the most since reset_peak().
std::size_t live_bytes();
std::size_t peak_bytes();
void reset_peak();

}  // namespace p2p::fuzz
