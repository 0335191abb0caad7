// What one import reads at most (docs/inputs-and-outputs.md, "Limits"). A document holds about 650
// bytes of JSON per figure and takes about 4.5 KB of memory per figure while it is built and
// written: 200,000 figures (100,000 nccl-tests table rows, both placements) write 130 MB in under 1
// GB, and the document still reads back (compare and report read 256 MiB).
#pragma once

#include <cstddef>
#include <string>

#include "common/error.hpp"

namespace p2p::import {

constexpr std::size_t kMaxImportedFigures = 200'000;

// Lines of one imported file. Each line is kept as its own string while a paste is read (32 bytes
// and more each), so a file of nothing but line breaks would take 32 times its size: past this
// ceiling it is refused before it is split. The largest output of a peer tool that stays under
// the figure ceiling (100,000 nccl-tests rows with banner and rank lines) is far below it.
constexpr std::size_t kMaxImportedLines = 4'000'000;

inline void require_lines_within_ceiling(const std::string& text, const std::string& source) {
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  if (lines <= kMaxImportedLines) return;
  throw InputError(source + ": more than " + std::to_string(kMaxImportedLines) +
                   " lines, beyond what one import reads (docs/inputs-and-outputs.md)");
}
// InputError "<source>: more than 200000 figures ..." where one more figure would pass the ceiling.
inline void require_room_for_a_figure(std::size_t figures_so_far, const std::string& source) {
  if (figures_so_far < kMaxImportedFigures) return;
  throw InputError(source + ": more than " + std::to_string(kMaxImportedFigures) +
                   " figures, beyond what one import reads (docs/inputs-and-outputs.md)");
}

}  // namespace p2p::import
