// What people and tools wrap around a tool's output before it reaches p2pcheck, removed before
// any reader sees the text: a byte order mark, CRLF line ends, terminal escapes, Markdown fences,
// quote markers, an editor's line numbers, mpirun and srun rank tags, timestamps, and lines a
// terminal wrapped at its width. Pure: text in, lines out, each with the line of the paste it
// came from, and one sentence per kind of wrapper that was removed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace p2p::import {

struct PasteLine {
  std::string text;
  int line = 0;  // 1-based line of the paste where it starts
};

struct NormalisedPaste {
  std::vector<PasteLine> lines;
  // One line per kind removed, in the order above: "quote markers (`> `) on 4 lines".
  std::vector<std::string> stripped;
};

NormalisedPaste normalise_paste(std::string_view text);

// Lines [begin, end) of a normalised paste as one text ('\n' after each line).
std::string paste_text(const NormalisedPaste& paste, std::size_t begin, std::size_t end);

}  // namespace p2p::import
