#include "nccl/nccl_env.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>

namespace p2p::nccl {
namespace {

TEST(NcclVariables, KeepsOnlyNcclEntries) {
  const EnvMap m =
      nccl_variables({"PATH=/usr/bin", "NCCL_P2P_LEVEL=NVL", "NCCL_IB_HCA=mlx5_0:1,mlx5_1:1",
                      "XNCCL_DEBUG=WARN", "NCCL_EMPTY=", "NCCL_BROKEN"});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.at("NCCL_P2P_LEVEL"), "NVL");
  EXPECT_EQ(m.at("NCCL_IB_HCA"), "mlx5_0:1,mlx5_1:1");  // values may contain '=' or ','
  EXPECT_EQ(m.at("NCCL_EMPTY"), "");
}

TEST(NcclSettings, RouteTheInfoLogOfTheTransportSubsystemsToAFile) {
  const EnvMap s = nccl_settings("/tmp/x.log", false);
  EXPECT_EQ(s.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(s.at("NCCL_DEBUG_FILE"), "/tmp/x.log");
  const std::string subsys = s.at("NCCL_DEBUG_SUBSYS");
  for (const char* needed : {"INIT", "P2P", "SHM", "NET"})
    EXPECT_NE(subsys.find(needed), std::string::npos);
  EXPECT_EQ(s.count("NCCL_P2P_DISABLE"), 0u);
  EXPECT_EQ(nccl_settings("/tmp/x.log", true).at("NCCL_P2P_DISABLE"), "1");
}

TEST(NcclSettings, ATopologyFileAddsTheGraphLinesThatSayItWasLoaded) {
  ::unsetenv("NCCL_TOPO_FILE");
  EXPECT_EQ(nccl_settings("/tmp/x.log", false).at("NCCL_DEBUG_SUBSYS"), "INIT,P2P,SHM,NET,ENV");
  ::setenv("NCCL_TOPO_FILE", "/etc/nccl/topo.xml", 1);
  EXPECT_EQ(nccl_settings("/tmp/x.log", false).at("NCCL_DEBUG_SUBSYS"),
            "INIT,P2P,SHM,NET,ENV,GRAPH");
  ::unsetenv("NCCL_TOPO_FILE");
}

TEST(NcclSettings, ApplyEnvironmentOverwrites) {
  ::setenv("P2PCHECK_TEST_VAR", "old", 1);
  apply_environment({{"P2PCHECK_TEST_VAR", "new"}});
  EXPECT_STREQ(std::getenv("P2PCHECK_TEST_VAR"), "new");
  EXPECT_EQ(nccl_variables(current_environment()).count("P2PCHECK_TEST_VAR"), 0u);
  ::unsetenv("P2PCHECK_TEST_VAR");
}

TEST(TempPath, UniqueAndRemovedOnDestruction) {
  std::string kept;
  {
    TempPath a("p2pcheck-test", ".log");
    TempPath b("p2pcheck-test", ".log");
    EXPECT_NE(a.path(), b.path());
    EXPECT_EQ(a.path().substr(a.path().size() - 4), ".log");
    struct stat st {};
    EXPECT_EQ(::stat(a.path().c_str(), &st), 0);
    kept = a.path();
  }
  struct stat st {};
  EXPECT_NE(::stat(kept.c_str(), &st), 0);
}

}  // namespace
}  // namespace p2p::nccl
