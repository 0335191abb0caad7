// --version: one line per optional part, whatever the build has.
#include "cli/version_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using p2p::cli::BuildParts;
using p2p::cli::version_text;

TEST(VersionText, AFullBuildNamesEachPartAndItsVersion) {
  BuildParts p;
  p.version = "0.1.0";
  p.cuda_toolkit = "12.4.131";
  p.nccl_headers = "2.21.5";
  p.mpi = "Open MPI 4.1.4";
  p.sanitizers = "address,undefined";
  EXPECT_EQ(version_text(p),
            "p2pcheck 0.1.0\n"
            "CUDA: toolkit 12.4.131 (runtime linked in; the driver is loaded at run time)\n"
            "NCCL: headers 2.21.5 (libnccl.so.2 is loaded at run time)\n"
            "MPI: Open MPI 4.1.4\n"
            "sanitizers: address,undefined\n");
}

TEST(VersionText, ABuildWithoutThemSaysNoOnEachLine) {
  BuildParts p;
  p.version = "0.1.0";
  const std::string text = version_text(p);
  EXPECT_EQ(text.rfind("p2pcheck 0.1.0\nCUDA: no (", 0), 0u) << text;
  EXPECT_NE(text.find("\nNCCL: no\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nMPI: no ("), std::string::npos) << text;
  EXPECT_NE(text.find("\nsanitizers: none\n"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
}

}  // namespace
