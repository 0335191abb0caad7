# p2p_add_test(NAME <name> SOURCES <...> LIBS <...> [GPU] [EVERY_CONFIG] [FULL_STACKS])
# One GoogleTest executable per unit. CPU tests are labelled `unit` (CI runs them);
# GPU tests are labelled `gpu` and print "[  SKIPPED ]" with a reason where no GPU is
# usable, which ctest then counts as skipped rather than passed. GPU tests hold one lock, so
# `ctest -j` never runs two at once: a run that shares its GPU with another is, rightly, failed
# as shared (the figures are not the links'), and every GPU test would see the other.
#
# -DP2P_TESTS_RUN_ELSEWHERE=FILE (scripts/test.sh): FILE is the p2p-cpu-tests.txt another
# configuration of this tree wrote (its build directory's, below), and whose tests run there.
# Then this configuration builds only the tests that one has not: GPU tests, tests of code it
# does not build (CUDA, NCCL), and those marked EVERY_CONFIG, whose assertions depend on the
# configuration (what --version and --help say was built in). Nothing is compiled twice for
# nothing, and every test still runs in one configuration or the other.
set(P2P_TESTS_RUN_ELSEWHERE "" CACHE FILEPATH
    "p2p-cpu-tests.txt of another build of this tree: its CPU tests are not built here")
set(p2p_tests_run_elsewhere)
if(P2P_TESTS_RUN_ELSEWHERE)
  if(NOT EXISTS "${P2P_TESTS_RUN_ELSEWHERE}")
    message(FATAL_ERROR "P2P_TESTS_RUN_ELSEWHERE: ${P2P_TESTS_RUN_ELSEWHERE} does not exist")
  endif()
  file(STRINGS "${P2P_TESTS_RUN_ELSEWHERE}" p2p_tests_run_elsewhere)
endif()
# This configuration's own list of CPU tests, for another configuration to read.
set(P2P_CPU_TEST_LIST "${PROJECT_BINARY_DIR}/p2p-cpu-tests.txt")
file(WRITE "${P2P_CPU_TEST_LIST}" "")

function(p2p_add_test)
  if(NOT P2P_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "GPU;EVERY_CONFIG;FULL_STACKS" "NAME" "SOURCES;LIBS" ${ARGN})
  if(NOT T_GPU AND NOT T_EVERY_CONFIG AND T_NAME IN_LIST p2p_tests_run_elsewhere)
    return()
  endif()
  if(NOT T_GPU)
    file(APPEND "${P2P_CPU_TEST_LIST}" "${T_NAME}\n")
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  if(P2P_SANITIZE)
    # The tests' own code at -O0: it is assertions and set-up, the time goes into the code under
    # test (instrumented at -O1), and -O0 halves the compile of a test source under the
    # sanitizers (CI's build is mostly test sources).
    target_compile_options(${T_NAME} PRIVATE -O0)
  endif()
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${T_NAME} PRIVATE P2P_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  if(T_GPU)
    set(properties LABELS gpu RESOURCE_LOCK gpu)
  else()
    set(properties LABELS unit)
  endif()
  if(P2P_SANITIZE AND T_FULL_STACKS)
    # scripts/test.sh records allocation stacks with the fast unwinder (3x quicker for tests that
    # allocate much). Tests that load hwloc's or Open MPI's plugins need full stacks: what those
    # plugins leak is suppressed by the frame below the plugin, which only a full unwind reaches
    # through libraries built without frame pointers (scripts/sanitizers/lsan.supp).
    list(APPEND properties ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0")
  endif()
  gtest_discover_tests(${T_NAME}
    DISCOVERY_TIMEOUT 60
    PROPERTIES ${properties} TIMEOUT 300 SKIP_REGULAR_EXPRESSION "\\[  SKIPPED")
endfunction()

# p2p_add_cli_test(NAME <name> SOURCES <...> LIBS <...> [GPU] [EVERY_CONFIG] [DEFINITIONS <NAME=value>...]
#                  [DEPENDS <target>...])
# A test that runs the built `p2pcheck` as a user would: p2p_add_test, with the executable's
# path as P2PCHECK_EXE, built before the test; DEFINITIONS and DEPENDS add the test's own.
function(p2p_add_cli_test)
  if(NOT P2P_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "GPU;EVERY_CONFIG;FULL_STACKS" "NAME" "SOURCES;LIBS;DEFINITIONS;DEPENDS"
                        ${ARGN})
  set(flags)
  if(T_GPU)
    list(APPEND flags GPU)
  endif()
  if(T_EVERY_CONFIG)
    list(APPEND flags EVERY_CONFIG)
  endif()
  if(T_FULL_STACKS)
    list(APPEND flags FULL_STACKS)
  endif()
  p2p_add_test(NAME ${T_NAME} SOURCES ${T_SOURCES} LIBS ${T_LIBS} ${flags})
  if(NOT TARGET ${T_NAME})
    return()
  endif()
  target_compile_definitions(${T_NAME} PRIVATE P2PCHECK_EXE="$<TARGET_FILE:p2pcheck>" ${T_DEFINITIONS})
  add_dependencies(${T_NAME} p2pcheck ${T_DEPENDS})
endfunction()
