# p2p_add_test(NAME <name> SOURCES <...> LIBS <...> [GPU])
# One GoogleTest executable per unit. CPU tests are labelled `unit` (CI runs them);
# GPU tests are labelled `gpu` and print "[  SKIPPED ]" with a reason where no GPU is
# usable, which ctest then counts as skipped rather than passed. GPU tests hold one lock, so
# `ctest -j` never runs two at once: a run that shares its GPU with another is, rightly, failed
# as shared (the figures are not the links'), and every GPU test would see the other.
function(p2p_add_test)
  if(NOT P2P_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "GPU" "NAME" "SOURCES;LIBS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${T_NAME} PRIVATE P2P_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  if(T_GPU)
    set(properties LABELS gpu RESOURCE_LOCK gpu)
  else()
    set(properties LABELS unit)
  endif()
  gtest_discover_tests(${T_NAME}
    DISCOVERY_TIMEOUT 60
    PROPERTIES ${properties} TIMEOUT 300 SKIP_REGULAR_EXPRESSION "\\[  SKIPPED")
endfunction()

# p2p_add_cli_test(NAME <name> SOURCES <...> LIBS <...> [GPU] [DEFINITIONS <NAME=value>...]
#                  [DEPENDS <target>...])
# A test that runs the built `p2pcheck` as a user would: p2p_add_test, with the executable's
# path as P2PCHECK_EXE, built before the test; DEFINITIONS and DEPENDS add the test's own.
function(p2p_add_cli_test)
  if(NOT P2P_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "GPU" "NAME" "SOURCES;LIBS;DEFINITIONS;DEPENDS" ${ARGN})
  set(gpu)
  if(T_GPU)
    set(gpu GPU)
  endif()
  p2p_add_test(NAME ${T_NAME} SOURCES ${T_SOURCES} LIBS ${T_LIBS} ${gpu})
  target_compile_definitions(${T_NAME} PRIVATE P2PCHECK_EXE="$<TARGET_FILE:p2pcheck>" ${T_DEFINITIONS})
  add_dependencies(${T_NAME} p2pcheck ${T_DEPENDS})
endfunction()
