// Terminal escape sequences in pasted text. Tools colour their output (vLLM and Ray colour line
// prefixes, nvidia-smi underlines its topo header), and a paste keeps the escapes, or what is
// left of them when the escape byte was lost on the way ("[4m", "[0m"). None of it is the tool's
// text, and every reader of pasted output removes it the same way.
#pragma once

#include <string>
#include <string_view>

namespace p2p {

// `line` without:
// - control sequences "ESC [ <digits and ;> <letter>" (colours, underline, cursor moves);
// - their remnants "[<digits and ;>m" whose escape byte was lost: only with the final 'm' and at
//   least one digit, so "[0]" (an NCCL rank's device) and "[m" stay;
// - any other lone escape byte.
std::string strip_ansi_escapes(std::string_view line);

}  // namespace p2p
