// A small MPI program the session test runs under mpirun: every exchange of mpi::Session once,
// with the last rank keeping silent in one gather, and what each rank saw printed as lines
// "<rank> <what> <value>" for the test to check.
#include <iostream>
#include <string>

#include "mpi/session.hpp"

int main() {
  p2p::mpi::Session s;
  const int me = s.rank(), n = s.size();
  const auto said = s.broadcast(0, me == 0 ? "from-root" : "", std::chrono::seconds(30));
  std::cout << me << " broadcast " << (said ? *said : "<none>") << "\n";

  const auto all = s.gather(0, "r" + std::to_string(me), std::chrono::seconds(30));
  if (me == 0) {
    for (std::size_t r = 0; r < all.size(); ++r)
      std::cout << "0 gathered " << r << "=" << all[r].value_or("<none>") << "\n";
  }

  // The last rank never answers this gather; the others must not wait past the deadline.
  const bool silent = me == n - 1 && n > 1;
  std::vector<std::optional<std::string>> partial;
  if (!silent) partial = s.gather(0, "late" + std::to_string(me), std::chrono::seconds(1));
  if (silent)
    s.broadcast(0, "", std::chrono::seconds(0));  // keeps the exchange count in step, gets nothing
  if (me == 0) {
    for (std::size_t r = 0; r < partial.size(); ++r) {
      std::cout << "0 partial " << r << "=" << partial[r].value_or("<none>") << "\n";
    }
  }

  for (int k = 0; k < 3; ++k) {
    if (me != 0) s.post(0, "line" + std::to_string(me) + "." + std::to_string(k));
  }
  // The lines are streamed; a final gather says they were all sent before.
  s.gather(0, "", std::chrono::seconds(30));
  if (me == 0) {
    int got = 0;
    for (int tries = 0; tries < 1000 && got < 3 * (n - 1); ++tries) {
      for (const auto& [source, text] : s.drain()) {
        std::cout << "0 drained " << source << " " << text << "\n";
        ++got;
      }
    }
  }
  std::cout << me << " done\n";
  return 0;
}
