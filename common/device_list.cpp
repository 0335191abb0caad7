#include "common/device_list.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"

namespace p2p {

namespace {

std::string without_blanks(std::string item) {
  item.erase(
      std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }),
      item.end());
  return item;
}

bool is_device_number(const std::string& item) {
  return !item.empty() && item.size() <= 4 &&
         std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

std::vector<int> parse_device_list(const std::string& text, const std::string& option) {
  std::vector<int> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = without_blanks(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty()) throw InputError(option + ": an empty item in '" + text + "'");
    if (!is_device_number(item))
      throw InputError(option + ": `" + text + "`: `" + item +
                       "` is not a GPU number (use e.g. 0,1)");
    const int g = std::stoi(item);
    if (std::find(out.begin(), out.end(), g) != out.end())
      throw InputError(option + ": `" + text + "`: GPU " + item + " is listed twice");
    out.push_back(g);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace p2p
