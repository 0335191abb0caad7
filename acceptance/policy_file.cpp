#include "acceptance/policy_file.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"

namespace p2p::accept {

PolicyFile policy_file_from_json(const nlohmann::json& j, const std::string& source) {
  PolicyFile p;
  p.gate = topo::policy_from_json(j, source, acceptance_keys());  // unknown keys refused here
  try {
    p.acceptance = acceptance_from_json(j, source);
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
  return p;
}

PolicyFile read_policy_file(const std::string& path) {
  return policy_file_from_json(read_json_file(path), path);
}

}  // namespace p2p::accept
