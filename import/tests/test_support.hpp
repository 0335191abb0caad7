// Fixture paths and one-line error capture for the import tests.
#pragma once

#include <functional>
#include <string>
#include <type_traits>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "document/bench_document.hpp"

namespace p2p::import::testing {

inline std::string fixture_text(const std::string& name) {
  return read_text_file(std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/" + name);
}

inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

template <class Records>
const auto* find_figure(const Records& records, const std::string& case_name,
                        const std::string& src, const std::string& dst,
                        const std::string& part = "") {
  for (const auto& r : records) {
    if (r.case_name == case_name && r.src == src && r.dst == dst) {
      if constexpr (std::is_same_v<std::decay_t<decltype(r)>, doc::BandwidthResult>) {
        if (r.part != part) continue;
      }
      return &r;
    }
  }
  return static_cast<decltype(&records.front())>(nullptr);
}

}  // namespace p2p::import::testing
