# Sanitizer and fuzzing configurations. Both instrument every target of this project (directory
# scope, never CMAKE_CXX_FLAGS) and are CPU-only: nvcc does not take -fsanitize, and the code
# they exist to check (parsers, documents, the CLI) needs no GPU.
#
#   -DP2P_SANITIZE=ON  ASan + UBSan over the CPU suite (scripts/test.sh runs it in build-cpu-sanitized/,
#                      with -DP2P_FUZZ=ON and clang, so one build serves both).
#   -DP2P_FUZZ=ON      libFuzzer targets in fuzz/ (scripts/fuzz.sh runs them in build-fuzz/).
if(NOT P2P_SANITIZE AND NOT P2P_FUZZ)
  return()
endif()
if(P2P_HAVE_CUDA)
  message(FATAL_ERROR "P2P_SANITIZE and P2P_FUZZ build the CPU code only: configure with -DP2P_WITH_CUDA=OFF")
endif()

set(p2p_sanitizers address,undefined)
if(P2P_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "P2P_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer")
  check_cxx_source_compiles([[
    #include <cstddef>
    #include <cstdint>
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
  ]] P2P_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT P2P_HAVE_LIBFUZZER)
    message(FATAL_ERROR "P2P_FUZZ: ${CMAKE_CXX_COMPILER} cannot link -fsanitize=fuzzer (install clang's libFuzzer)")
  endif()
  # Every library gets coverage counters; only the fuzz targets link libFuzzer's main.
  set(p2p_sanitizers fuzzer-no-link,address,undefined)
endif()

# -O1 keeps the sanitized suite fast while stack traces stay exact (-g1: line tables only, for
# smaller objects and quicker links). A UBSan report stops the process where
# UBSAN_OPTIONS=halt_on_error=1 is set, as scripts/test.sh and scripts/fuzz.sh do.
add_compile_options(-fsanitize=${p2p_sanitizers} -fno-omit-frame-pointer -O1 -g1)
add_link_options(-fsanitize=address,undefined)
