#include "mpi/launch_env.hpp"

#include <cctype>

extern char** environ;

namespace p2p::mpi {

const char* const kHowToGetMpi =
    "install Open MPI (Debian/Ubuntu: apt-get install libopenmpi-dev openmpi-bin) and rebuild p2pcheck "
    "(cmake finds it; -DP2P_WITH_MPI=ON is the default)";

namespace {

std::optional<int> non_negative(const std::string& text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return std::stoi(text);
}

}  // namespace

Environment process_environment() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

std::string launch_evidence(const Environment& env) {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    const auto it = env.find(name);
    if (it != env.end()) return it->first + "=" + it->second;
  }
  return "";
}

std::optional<int> launcher_local_rank(const Environment& env, std::string* from) {
  for (const char* name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", "PMIX_LOCAL_RANK"}) {
    const auto it = env.find(name);
    if (it == env.end()) continue;
    const std::optional<int> value = non_negative(it->second);
    if (!value) continue;
    if (from != nullptr) *from = name;
    return value;
  }
  return std::nullopt;
}

std::string per_rank_path(const std::string& path, int rank) {
  if (path == "-") return path;
  const std::string tag = ".rank" + std::to_string(rank);
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  // Only a dot inside the file name (not at its start: ".hidden") begins an extension.
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  if (dot == std::string::npos || dot <= name_start) return path + tag;
  return path.substr(0, dot) + tag + path.substr(dot);
}

}  // namespace p2p::mpi
