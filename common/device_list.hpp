// A comma-separated list of device numbers as the user typed it ("0,1,3"): one reader for every
// command's --gpus, so `0,,1`, `0,` and `1,1` are refused the same way everywhere (CLI11's own
// delimiter silently drops empty items).
#pragma once

#include <string>
#include <vector>

namespace p2p {

// "0,1,3" -> {0, 1, 3}, in the order given; blanks around items are ignored. InputError naming
// `option` on an empty list or item, anything but 1-4 decimal digits, or a number given twice.
std::vector<int> parse_device_list(const std::string& text, const std::string& option);

}  // namespace p2p
