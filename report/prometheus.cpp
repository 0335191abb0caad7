#include "report/prometheus.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "report/markup_text.hpp"

namespace p2p::report {

std::string prometheus_label_value(const std::string& value) {
  std::string out;
  for (char c : valid_utf8(value)) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string prometheus_help_text(const std::string& text) {
  std::string out;
  for (char c : valid_utf8(text)) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string prometheus_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

void Exposition::gauge(const std::string& name, const std::string& help) {
  if (families_.count(name) != 0) return;
  order_.push_back(name);
  families_[name].help = help;
}

void Exposition::add(const std::string& name, const Labels& labels, double value) {
  const auto it = families_.find(name);
  if (it == families_.end())
    throw std::logic_error("metric family " + name + " added before it was declared");
  std::string series = name;
  bool first = true;
  for (const auto& [key, v] : labels) {
    if (v.empty()) continue;
    series += (first ? "{" : ",") + key + "=\"" + prometheus_label_value(v) + "\"";
    first = false;
  }
  if (!first) series += "}";
  if (series_.count(series) != 0) {
    ++duplicates_;
    return;
  }
  series_[series] = true;
  it->second.lines.push_back(series + " " + prometheus_value(value));
}

std::size_t Exposition::samples() const { return series_.size(); }

std::string Exposition::render() const {
  std::ostringstream os;
  for (const auto& name : order_) {
    const Family& f = families_.at(name);
    if (f.lines.empty()) continue;
    os << "# HELP " << name << " " << prometheus_help_text(f.help) << "\n# TYPE " << name
       << " gauge\n";
    for (const auto& l : f.lines) os << l << "\n";
  }
  return os.str();
}

}  // namespace p2p::report
