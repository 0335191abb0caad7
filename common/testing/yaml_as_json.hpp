// A YAML file (a CI pipeline, a Kubernetes manifest) as JSON, read by Python's PyYAML, for tests
// that check what those files say. Header-only; test code only.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/testing/run_captured.hpp"

namespace p2p::testing {

// The YAML as JSON, or null with `why` set (PyYAML missing, or the file does not parse).
inline nlohmann::json yaml_as_json(const std::string& path, std::string& why) {
  const auto r = run_captured(
      "/usr/bin/python3 -c 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), "
      "sys.stdout, default=str)' '" +
      path + "'");
  if (r.exit_code != 0) {
    why = r.err.find("No module named") != std::string::npos
              ? "PyYAML not installed (Debian: python3-yaml)"
              : r.err;
    return nullptr;
  }
  return nlohmann::json::parse(r.out);
}

}  // namespace p2p::testing
