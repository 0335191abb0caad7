// What a JSON text's shape says before it is parsed: how deep it nests, and whether an object
// gives one key twice. One pass over the text, linear in its size.
//
// nlohmann's parser keeps the last of two equal keys without a word, so a policy file with
// "max_path" given twice would silently apply one of them; and its parser callback, which could
// see both, makes parsing quadratic in a document's records. So both checks are done here, on the
// text, and every JSON file p2pcheck reads goes through them (common/file_io.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace p2p {

struct JsonShapeProblem {
  std::size_t line = 0;  // 1-based line of the text where it was found
  std::string what;      // "nested deeper than 64 levels", "key \"max_path\" given twice"
};

// The first problem of shape in `text` (nesting deeper than `max_depth`, or a key given twice in
// one object); nullopt when there is none. Text that is not JSON at all is left to the parser.
std::optional<JsonShapeProblem> json_shape_problem(const std::string& text, int max_depth);

}  // namespace p2p
