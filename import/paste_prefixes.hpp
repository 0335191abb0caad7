// Recognisers of what people and launchers put before each line of a tool's output. Each looks
// only at the start of one line and answers how many bytes of it are the wrapper (0 for none);
// import/paste_text.cpp decides which to remove, some only when most lines carry them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace p2p::import::paste {

// Markdown quote markers: "> ", ">> ", "> > " (up to three blanks before them), as a reply quotes.
std::size_t quote_marker(std::string_view line);

// Open MPI's --tag-output "[1,0]<stdout>:" and the "[0]<stdout>" some launchers print.
std::size_t mpi_rank_tag(std::string_view line);

// A leading timestamp: "2025-05-22T07:36:17.123Z ", "[2025-05-22 07:36:17] ", "07:36:17.5 ",
// and the " - INFO - " Python's logging puts after one.
std::size_t timestamp(std::string_view line);

// MPICH's -prepend-rank "[0] " and srun --label's "0: ": only wrappers when most lines have one.
std::size_t bracketed_rank(std::string_view line);
std::size_t task_label(std::string_view line);

// A Markdown fence ("```", "~~~bash", "``` shell"): what follows it on the line ("" when only an
// info string does); nullopt for a line that is no fence. "```[P2P (Peer-to-Peer) ..." keeps the
// tool's text that was typed right after the fence.
std::optional<std::string> fence_rest(std::string_view line);

// An editor's line number before the text: "  12 text", "12:text", "12|text", "  7".
struct LeadingNumber {
  long value = 0;
  std::size_t length = 0;  // the number, the blanks before it and one separator after it
};
std::optional<LeadingNumber> leading_number(std::string_view line);

}  // namespace p2p::import::paste
