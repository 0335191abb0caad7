// What every fuzz target shares: the bytes are the text of a file a user handed p2pcheck, fed
// to what the CLI does with that file. The documented outcomes are success and InputError
// (exit 2, one line naming the file). Anything else is a finding: another exception (exit 4
// for bad input), a crash, a sanitizer report or a hang (libFuzzer's -timeout).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/error.hpp"
#include "fuzz/input_memory.hpp"

namespace p2p::fuzz {

// The name errors carry, as a path would.
inline const std::string kSource = "fuzz-input";

// A reader that held more than kFixedAllowanceBytes + kAllowancePerInputByte x the input's size
// for one input: memory that grows faster than the input is a finding too.
inline void require_linear_memory(std::size_t before, std::size_t input_bytes) {
  const std::size_t held = peak_bytes() > before ? peak_bytes() - before : 0;
  if (held <= kFixedAllowanceBytes + kAllowancePerInputByte * input_bytes) return;
  std::fprintf(stderr, "fuzz: the reader held %zu bytes for an input of %zu bytes: not linear\n",
               held, input_bytes);
  std::abort();
}

template <class Body>
int feed(const std::uint8_t* data, std::size_t size, Body&& body) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t before = live_bytes();
  reset_peak();
  try {
    body(text);
  } catch (const InputError&) {
    // documented: bad input
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: not an InputError: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz: an exception that is not a std::exception\n");
    std::abort();
  }
  require_linear_memory(before, size);
  return 0;
}

// True when the first byte that is not blank is `c` (the CLI tells XML from JSON this way).
inline bool starts_with(const std::string& text, char c) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == c;
}

}  // namespace p2p::fuzz
