#include "common/progress_meter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace p2p {
namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string two_digits(long long n) {
  char text[8];
  std::snprintf(text, sizeof text, "%02lld", n);
  return text;
}

}  // namespace

std::string duration_text(double seconds) {
  const long long s = std::llround(std::max(seconds, 0.0));
  if (s < 60) return std::to_string(s) + "s";
  if (s < 3600) return std::to_string(s / 60) + "m" + two_digits(s % 60) + "s";
  return std::to_string(s / 3600) + "h" + two_digits(s % 3600 / 60) + "m";
}

ProgressMeter::ProgressMeter(std::ostream& out, std::string prefix, std::size_t total,
                             bool terminal, Clock clock)
    : out_(out),
      prefix_(std::move(prefix)),
      total_(total),
      terminal_(terminal),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)),
      start_s_(clock_()),
      last_summary_s_(start_s_) {}

void ProgressMeter::update(std::size_t done, const std::string& item, bool failed) {
  done_ = done;
  failed_ += failed ? 1 : 0;
  last_item_ = item;
  const std::string count = "[" + std::to_string(done) + "/" + std::to_string(total_) + "]";
  if (terminal_) {
    out_ << "\r\033[K" << prefix_ << count << " " << item << std::flush;
    return;
  }
  // A failure is news a log reader wants at once, with what went wrong.
  if (failed) out_ << prefix_ << count << " " << item << "\n" << std::flush;
  const double now = clock_();
  if (now - last_summary_s_ < kSummaryEverySeconds || done >= total_) return;
  last_summary_s_ = now;
  const double elapsed = now - start_s_;
  std::string how_far = std::to_string(total_ == 0 ? 100 : done * 100 / total_) + "%, " +
                        duration_text(elapsed) + " elapsed";
  if (done > 0) {
    const double left = elapsed / static_cast<double>(done) * static_cast<double>(total_ - done);
    how_far += ", about " + duration_text(left) + " left";
  }
  summary(how_far);
}

void ProgressMeter::finish() {
  if (finished_ || done_ == 0) return;
  finished_ = true;
  if (terminal_) {
    out_ << "\n" << std::flush;
    return;
  }
  const std::string elapsed = duration_text(clock_() - start_s_);
  summary(done_ >= total_ ? "finished in " + elapsed : "ended after " + elapsed);
}

void ProgressMeter::summary(const std::string& how_far) {
  out_ << prefix_ << "[" << done_ << "/" << total_ << "] " << how_far;
  if (failed_ > 0) out_ << ", " << failed_ << " failed";
  out_ << " (last: " << last_item_ << ")\n" << std::flush;
}

}  // namespace p2p
