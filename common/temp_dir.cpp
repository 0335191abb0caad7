#include "common/temp_dir.hpp"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "common/error.hpp"

namespace p2p {

TempDir::TempDir(const std::string& stem) {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/" + stem + "-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  P2P_CHECK_POSIX(::mkdtemp(buf.data()) == nullptr ? -1 : 0);
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace p2p
