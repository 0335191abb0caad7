#include "common/dynamic_library.hpp"

#include <gtest/gtest.h>

namespace {

TEST(DynamicLibrary, MissingLibraryIsAFactNotACrash) {
  const auto lib = p2p::DynamicLibrary::open("libp2pcheck-does-not-exist.so.9");
  EXPECT_FALSE(lib.loaded());
  EXPECT_NE(lib.error().find("libp2pcheck-does-not-exist.so.9"), std::string::npos) << lib.error();
  EXPECT_EQ(lib.symbol("anything"), nullptr);
  EXPECT_EQ(lib.resolved_path("anything"), "");
}

TEST(DynamicLibrary, ResolvesSymbolsAndRealPathOfALoadedLibrary) {
  // libm is present on every glibc system the project supports.
  const auto lib = p2p::DynamicLibrary::open("libm.so.6");
  ASSERT_TRUE(lib.loaded()) << lib.error();
  using CosFn = double (*)(double);
  const auto cos_fn = lib.function<CosFn>("cos");
  ASSERT_NE(cos_fn, nullptr);
  EXPECT_DOUBLE_EQ(cos_fn(0.0), 1.0);
  const std::string path = lib.resolved_path("cos");
  EXPECT_EQ(path.front(), '/');
  EXPECT_NE(path.find("libm"), std::string::npos) << path;
  EXPECT_EQ(lib.symbol("p2pcheck_no_such_symbol"), nullptr);
}

}  // namespace
