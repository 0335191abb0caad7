// The Prometheus text exposition format (version 0.0.4), as node_exporter's textfile collector
// reads it: each metric family once with # HELP and # TYPE, then its samples. No sample carries
// a timestamp (the textfile collector refuses files that do); when the run happened is a
// metric of its own. Label values are made valid UTF-8 and escaped; a series (name and label
// set) is written once, since a repeated one makes the collector drop the whole file.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace p2p::report {

using Labels = std::vector<std::pair<std::string, std::string>>;  // written in this order

class Exposition {
 public:
  // Declares a gauge (the only type written: every value is a state or a measurement).
  void gauge(const std::string& name, const std::string& help);
  // A sample of a declared family. Labels with empty values are left out (Prometheus treats
  // an empty value as an absent label). A series already added is ignored and counted.
  void add(const std::string& name, const Labels& labels, double value);

  std::string render() const;
  int duplicates() const { return duplicates_; }
  std::size_t samples() const;

 private:
  struct Family {
    std::string help;
    std::vector<std::string> lines;  // "name{labels} value"
  };
  std::vector<std::string> order_;
  std::map<std::string, Family> families_;
  std::map<std::string, bool> series_;
  int duplicates_ = 0;
};

std::string prometheus_label_value(const std::string& value);  // \\, \" and \n escaped
std::string prometheus_help_text(const std::string& text);     // \\ and \n escaped
std::string prometheus_value(double v);                        // NaN, +Inf, -Inf, or %.17g

}  // namespace p2p::report
