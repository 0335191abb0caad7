// How far a run is, on a stream. On a terminal: one line rewritten in place as each item
// finishes ("[12/480] name: detail"). Anywhere else (a CI log, a file, a pipe): no line per
// item, but a summary every so often and one at the end, each with the time elapsed and an
// estimate of the time left, so a log of a long run stays short and still says how far it got;
// an item that failed gets its own line as it happens.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>

namespace p2p {

// "45s", "3m05s", "2h03m": a duration as a person reads it in a log line.
std::string duration_text(double seconds);

class ProgressMeter {
 public:
  using Clock = std::function<double()>;  // seconds on a monotonic clock
  static constexpr double kSummaryEverySeconds = 10;

  // `prefix` comes before "[done/total]" ("p2pcheck nccl: "); `clock` defaults to the steady
  // clock (tests give their own). The run's time starts now.
  ProgressMeter(std::ostream& out, std::string prefix, std::size_t total, bool terminal,
                Clock clock = {});

  // `done` items of `total` have finished, the last being `item` (its name and what it gave);
  // `failed` when that one failed (counted in the summaries).
  void update(std::size_t done, const std::string& item, bool failed = false);

  // Ends the display: a newline after the terminal's line; elsewhere the closing summary.
  // Nothing when no item finished. Called once; later calls do nothing.
  void finish();

 private:
  void summary(const std::string& how_far);

  std::ostream& out_;
  std::string prefix_;
  std::size_t total_;
  bool terminal_;
  Clock clock_;
  double start_s_;
  double last_summary_s_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  std::string last_item_;
  bool finished_ = false;
};

}  // namespace p2p
