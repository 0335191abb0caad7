// The table of transfer methods: every way a lane can move data, and the strategy object
// (transfer_method.hpp) that answers for it. A new method is its own file in this folder,
// defining its TransferMethod and the function returning it, plus three lines here: its
// Method value, that function's declaration, and its row. The tests walk every Method through
// the table (method_table_test.cpp), and every .cpp in this folder is built (CMakeLists.txt).
#pragma once

#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>

#include "bench/measure/methods/transfer_method.hpp"

namespace p2p::bench {

enum class Method {
  kCopyEngine,    // copy_engine.cpp: cudaMemcpyPeerAsync / cudaMemcpyAsync on the issuer
  kSm,            // sm_copy.cpp: the copy kernel on the issuer, loading src, storing dst
  kStaged,        // staged_copy.cpp: src GPU -> pinned host bounce slots -> dst GPU, pipelined
  kPointerChase,  // pointer_chase.cpp: latency, the issuer walks a chain in dst's memory
  kCount,         // not a method: how many there are
};

const TransferMethod& copy_engine_method();
const TransferMethod& sm_copy_method();
const TransferMethod& staged_copy_method();
const TransferMethod& pointer_chase_method();

struct MethodRow {
  Method method;
  const TransferMethod& (*strategy)();
};

inline constexpr MethodRow kMethodTable[] = {
    {Method::kCopyEngine, copy_engine_method},
    {Method::kSm, sm_copy_method},
    {Method::kStaged, staged_copy_method},
    {Method::kPointerChase, pointer_chase_method},
};
static_assert(std::size(kMethodTable) == static_cast<std::size_t>(Method::kCount),
              "every Method needs its row in kMethodTable");

// The strategy for `m`; std::logic_error for a value without a row (kCount).
inline const TransferMethod& transfer_method(Method m) {
  for (const MethodRow& row : kMethodTable) {
    if (row.method == m) return row.strategy();
  }
  throw std::logic_error("transfer method " + std::to_string(static_cast<int>(m)) +
                         " has no row in the method table");
}

}  // namespace p2p::bench
