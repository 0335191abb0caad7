// The real parsers the exporters are checked with: xmllint (libxml2-utils) against
// tests/junit.xsd, and prometheus_client's exposition parser (python3-prometheus-client).
// Each helper says why it cannot run, so the test skips with that reason.
#pragma once

#include <string>

#include "common/file_io.hpp"
#include "common/testing/run_captured.hpp"

namespace p2p::testing {

inline bool have_command(const std::string& name) {
  return run_captured("command -v " + name).exit_code == 0;
}

inline std::string junit_schema() {
  return std::string(P2P_SOURCE_DIR) + "/report/tests/junit.xsd";
}

// "" when the file is well-formed XML valid against the schema, else the validator's words.
inline std::string junit_problems(const std::string& path) {
  const auto r = run_captured("xmllint --noout --schema '" + junit_schema() + "' '" + path + "'");
  return r.exit_code == 0
             ? ""
             : "xmllint exit " + std::to_string(r.exit_code) + ": " + r.err.substr(0, 2000);
}

// Debian's interpreter: the module comes from python3-prometheus-client.
inline std::string python_with_prometheus_client() {
  for (const char* py : {"/usr/bin/python3", "python3"}) {
    if (run_captured(std::string(py) + " -c 'import prometheus_client'").exit_code == 0) return py;
  }
  return "";
}

struct PromCheck {
  int exit_code = -1;
  std::string out;  // "<families> <samples>" or the problem
};
inline PromCheck check_prometheus_file(const std::string& python, const std::string& path) {
  const auto r = run_captured(python + " '" + P2P_SOURCE_DIR +
                              "/report/tests/check_prometheus_textfile.py' '" + path + "'");
  return {r.exit_code, r.out + r.err};
}

}  // namespace p2p::testing
