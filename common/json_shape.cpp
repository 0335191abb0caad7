#include "common/json_shape.hpp"

#include <string_view>
#include <unordered_set>
#include <vector>

namespace p2p {
namespace {

// An open object or array. In an object, the next string after '{' or ',' is a key.
struct Frame {
  bool object = false;
  bool expect_key = false;
  std::unordered_set<std::string_view> keys;
};

}  // namespace

std::optional<JsonShapeProblem> json_shape_problem(const std::string& text, int max_depth) {
  std::vector<Frame> open;
  std::size_t line = 1, string_start = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
        if (!open.empty() && open.back().object && open.back().expect_key) {
          open.back().expect_key = false;
          const std::string_view key(text.data() + string_start, i - string_start);
          if (!open.back().keys.insert(key).second)
            return JsonShapeProblem{line, "key \"" + std::string(key) + "\" given twice"};
        }
      }
    } else if (c == '"') {
      in_string = true;
      string_start = i + 1;
    } else if (c == '[' || c == '{') {
      if (static_cast<int>(open.size()) >= max_depth)
        return JsonShapeProblem{line,
                                "nested deeper than " + std::to_string(max_depth) + " levels"};
      open.push_back(Frame{c == '{', c == '{', {}});
    } else if (c == ']' || c == '}') {
      if (!open.empty()) open.pop_back();
    } else if (c == ',' && !open.empty() && open.back().object) {
      open.back().expect_key = true;
    }
  }
  return std::nullopt;
}

}  // namespace p2p
