// The normaliser every pasted text goes through before a reader sees it (`p2p::import::
// normalise_paste`). Beyond crashes and hangs, a finding is a broken promise: a line that claims
// to come from outside the paste, lines out of order, or more lines out than went in.
#include "import/paste_text.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const import::NormalisedPaste p = import::normalise_paste(text);
    const int input_lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    int previous = 0;
    for (const auto& l : p.lines) {
      if (l.line <= previous || l.line > input_lines) {
        std::fprintf(stderr, "fuzz: line %d after %d of %d\n", l.line, previous, input_lines);
        std::abort();
      }
      previous = l.line;
    }
    (void)import::paste_text(p, 0, p.lines.size());
  });
}
