// Option checks CLI11 does not make. Its Range lets NaN through (every comparison with NaN is
// false), and a tolerance or timeout of NaN would silently turn every judgement off.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

namespace p2p::cli {

inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          std::size_t used = 0;
          const double v = std::stod(text, &used);
          if (used == text.size() && std::isfinite(v)) return "";
        } catch (const std::exception&) {
        }
        return "`" + text + "` is not a finite number";
      },
      "FINITE");
}

}  // namespace p2p::cli
