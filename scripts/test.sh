#!/usr/bin/env bash
# The whole test suite from a fresh machine: install the Debian packages, build, run every
# test. CPU tests (label `unit`) must pass; GPU tests (label `gpu`) run where a GPU is usable
# and are reported as skipped, with the reason, where none is.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build_dir=${P2P_BUILD_DIR:-build}
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "$@"
