// Text and list matching the derived readings share (derived*.cpp, driver_statements.cpp).
// Internal to p2p_doctor.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace p2p::doctor {

inline bool contains(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

inline bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace p2p::doctor
