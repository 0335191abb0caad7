// A private directory that lives as long as its owner: rank processes write their lines there,
// tests build fixture trees and capture outputs there. The one helper for temporary directories.
#pragma once

#include <string>

namespace p2p {

// mkdtemp under $TMPDIR (or /tmp), named "<stem>-XXXXXX"; removed with everything in it when
// the object goes. Throws ApiError (mkdtemp and its errno) when it cannot be made.
class TempDir {
 public:
  explicit TempDir(const std::string& stem = "p2p");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // path()/name
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace p2p
