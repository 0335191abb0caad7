// For tests that hold a reader to memory and work linear in its input: every operator new of the
// process counted while a CountAllocations is alive (how many, and the most bytes held at once).
// Linking allocation_counter.cpp replaces the global operator new and delete, so only a test
// executable of its own links it (p2p_allocation_counter). Counters, not wall time: a test that
// doubles its input and compares counts cannot fail on a busy machine.
#pragma once

#include <cstddef>

namespace p2p::testing {

struct AllocationCounts {
  std::size_t allocations = 0;  // operator new calls
  std::size_t peak_bytes = 0;   // the most bytes held at once beyond what was held at the start
};

class CountAllocations {
 public:
  CountAllocations();
  ~CountAllocations();
  CountAllocations(const CountAllocations&) = delete;
  CountAllocations& operator=(const CountAllocations&) = delete;

  AllocationCounts counts() const;
};

}  // namespace p2p::testing
