#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages p2pcheck builds against. Idempotent: packages
# already present are left alone, so CI and developers can run it every time.
#
#   scripts/install-deps.sh                 # build and test dependencies
#   scripts/install-deps.sh --with-browser  # and Chromium, for the test that renders the HTML
#                                           # report in a headless browser (about 80 MB to fetch,
#                                           # 300 MB installed: GPU hosts running the acceptance
#                                           # chain do not need it; scripts/test.sh asks for it)
# The CUDA toolkit (with NCCL) is expected at /usr/local/cuda; it is not a Debian package.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libhwloc-dev hwloc-nox
  libcli11-dev nlohmann-json3-dev
  libbenchmark-dev libgtest-dev googletest
  # Open MPI: `cluster` across hosts, and the CPU test that runs it under mpirun.
  libopenmpi-dev openmpi-bin
  # The tests read the machine outputs back with real parsers: xmllint (JUnit against
  # report/tests/junit.xsd), prometheus_client's exposition parser, PyYAML for CI pipelines.
  libxml2-utils python3-prometheus-client python3-yaml
  # scripts/lint.sh: layout and static checks with the configurations at the repository root.
  clang-format clang-tidy
  # The CPU-only configuration is tested under clang's AddressSanitizer and
  # UndefinedBehaviorSanitizer, with the libFuzzer targets (scripts/test.sh, scripts/fuzz.sh).
  clang
)

for arg in "$@"; do
  case $arg in
    --with-browser) packages+=(chromium) ;;
    *) echo "install-deps: unknown argument $arg (--with-browser adds Chromium)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
updated=0
install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "install-deps: installing ${missing[*]}"
  if ((!updated)); then
    $sudo apt-get update -qq
    updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

install_missing "${packages[@]}"
# libFuzzer and the sanitizer runtimes are only recommended by clang (Debian 12 and later), in a
# package named by its version; older releases ship them with clang itself.
rt="libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
if apt-cache show "$rt" >/dev/null 2>&1; then
  install_missing "$rt"
fi
echo "install-deps: all packages present"
