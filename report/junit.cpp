#include "report/junit.hpp"

#include <cstdio>
#include <sstream>

#include "report/markup_text.hpp"

namespace p2p::report {
namespace {

std::string attr(const std::string& text) { return xml_escape(text, true); }

std::string seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6f", s < 0 ? 0.0 : s);
  return b;
}

// "2026-12-02T10:11:12Z" -> "2026-12-02T10:11:12"; anything else that does not look like
// an ISO 8601 time is left out (the attribute is then omitted).
std::string junit_timestamp(const std::string& iso) {
  if (iso.size() < 19 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' || iso[13] != ':' ||
      iso[16] != ':')
    return "";
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}) {
    if (iso[i] < '0' || iso[i] > '9') return "";
  }
  return iso.substr(0, 19);
}

CaseCounts count(const CheckSuite& s) {
  CaseCounts c;
  for (const auto& k : s.cases) {
    ++c.tests;
    c.failures += k.outcome == doc::Outcome::kFail;
    c.errors += k.outcome == doc::Outcome::kError;
    c.skipped += k.outcome == doc::Outcome::kSkipped || k.outcome == doc::Outcome::kNotMeaningful;
  }
  return c;
}

double total_time(const CheckSuite& s) {
  double t = 0;
  for (const auto& k : s.cases) t += k.time_s.value_or(0);
  return t;
}

void write_counts(std::ostringstream& os, const CaseCounts& c) {
  os << " tests=\"" << c.tests << "\" failures=\"" << c.failures << "\" errors=\"" << c.errors
     << "\" skipped=\"" << c.skipped << "\"";
}

}  // namespace

CaseCounts count_cases(const std::vector<CheckSuite>& suites) {
  CaseCounts all;
  for (const auto& s : suites) {
    const CaseCounts c = count(s);
    all.tests += c.tests;
    all.failures += c.failures;
    all.errors += c.errors;
    all.skipped += c.skipped;
  }
  return all;
}

std::string render_junit(const std::vector<CheckSuite>& suites) {
  std::ostringstream os;
  double time_all = 0;
  for (const auto& s : suites) time_all += total_time(s);
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"p2pcheck\"";
  write_counts(os, count_cases(suites));
  os << " time=\"" << seconds(time_all) << "\">\n";
  int id = 0;
  for (const auto& s : suites) {
    os << "  <testsuite name=\"" << attr(s.name) << "\" id=\"" << id++ << "\"";
    write_counts(os, count(s));
    os << " time=\"" << seconds(total_time(s)) << "\"";
    if (!s.hostname.empty()) os << " hostname=\"" << attr(s.hostname) << "\"";
    if (const std::string t = junit_timestamp(s.timestamp); !t.empty())
      os << " timestamp=\"" << t << "\"";
    os << ">\n";
    if (!s.properties.empty()) {
      os << "    <properties>\n";
      for (const auto& [name, value] : s.properties)
        os << "      <property name=\"" << attr(name) << "\" value=\"" << attr(single_line(value))
           << "\"/>\n";
      os << "    </properties>\n";
    }
    for (const auto& c : s.cases) {
      os << "    <testcase name=\"" << attr(c.name) << "\" classname=\"" << attr(c.classname)
         << "\" time=\"" << seconds(c.time_s.value_or(0)) << "\"";
      const std::string message = attr(single_line(c.message));
      switch (c.outcome) {
        case doc::Outcome::kPass:
        case doc::Outcome::kWarn:
          // A passing case keeps what it measured where reporters show it.
          if (message.empty()) {
            os << "/>\n";
          } else {
            os << ">\n      <system-out>" << xml_escape(c.message, false)
               << "</system-out>\n    </testcase>\n";
          }
          break;
        case doc::Outcome::kFail:
          os << ">\n      <failure message=\"" << message << "\" type=\"" << attr(s.name) << "\">"
             << xml_escape(c.message, false) << "</failure>\n    </testcase>\n";
          break;
        case doc::Outcome::kError:
          os << ">\n      <error message=\"" << message << "\" type=\"" << attr(s.name) << "\">"
             << xml_escape(c.message, false) << "</error>\n    </testcase>\n";
          break;
        case doc::Outcome::kSkipped:
        case doc::Outcome::kNotMeaningful:
          os << ">\n      <skipped message=\"" << message << "\"/>\n    </testcase>\n";
          break;
      }
    }
    os << "  </testsuite>\n";
  }
  os << "</testsuites>\n";
  return os.str();
}

}  // namespace p2p::report
