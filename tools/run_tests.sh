#!/usr/bin/env bash
# The README's test command (and CI's): installs what is missing, builds everything, runs the whole
# suite on lavapipe under the Khronos validation layer; then the same suite built with ASan+UBSan,
# and a short run of every fuzz target (tools/run_fuzz.sh). Fails on any failing test, on any
# skipped test (CI must provide every feature a test needs: a skip there means lost coverage),
# and on any fuzz finding.
#   tools/run_tests.sh           every stage (CI; about an hour on 2 cores)
#   tools/run_tests.sh --quick   the lavapipe suite only (about 10 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: tools/run_tests.sh [--quick]" >&2; exit 2 ;;
esac

bash tools/install_deps.sh
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.json}
export VKC_REQUIRE_DEVICE=1
min_tests=300

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# print_failures: what each failed test printed, gathered at the end (CI keeps only the tail of a
# log, and parallel ctest interleaves a failure's output with the passes that follow it).
print_failures() {
  echo "run_tests: the failed tests' output:" >&2
  awk '/^[0-9]+\/[0-9]+ Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Exception|\*\*\*Timeout)/ {keep = 1}
       /^[0-9]+\/[0-9]+ Test +#[0-9]+: .* Passed/ || /^ +Start +[0-9]+: / {keep = 0}
       keep' "$log" | tail -n 400 >&2
}

# build_and_test BUILD_DIR [CMAKE_OPTION...] [-- CTEST_OPTION...]: configures, builds and runs the
# suite; a suite that lost its tests (a target not built, a discovery that found nothing) or skipped
# one fails.
build_and_test() {
  local build=$1 cmake_options=() ctest_options=()
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmake_options+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  ctest_options=("$@")
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVKCOLLIDE_BUILD_TESTS=ON -DVKCOLLIDE_BUILD_TOOLS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$optimise -g1 -DNDEBUG" "${cmake_options[@]}" >/dev/null
  cmake --build "$build" -j"$(nproc)"
  if ! ctest --test-dir "$build" --output-on-failure --no-tests=error -j"$(nproc)" --timeout 900 \
    "${ctest_options[@]}" | tee "$log"; then
    print_failures
    exit 1
  fi
  local ran skipped
  ran=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
  if [ "${ran:-0}" -lt "$min_tests" ]; then
    echo "run_tests: ${ran:-0} test(s) ran in $build, fewer than the $min_tests this suite has" >&2
    exit 1
  fi
  skipped=$(grep -c "\*\*\*Skipped\|Not Run" "$log" || true)
  if [ "$skipped" -ne 0 ]; then
    echo "run_tests: $skipped test(s) skipped in $build; CI requires every test to run" >&2
    exit 1
  fi
}

# Line tables only (-g1): backtraces keep their file:line, and the CGAL-heavy oracle compiles in
# about two thirds of the time full debug information takes (CI's budget is the build's).
optimise=-O2
build_and_test "${VKC_BUILD_DIR:-build}"
[ "$quick" -eq 1 ] && exit 0

# ASan+UBSan (UBSan findings abort). LeakSanitizer suppresses only the system's driver, loader and
# validation layer (tools/sanitizers/lsan.supp). Left out: RenderDoc's capture tests (RenderDoc
# hooks the process's Vulkan calls and memory, which ASan does not survive) and the install test
# (its consumer links the installed, instrumented library without the sanitizer runtimes).
# -O1, as ASan's documentation advises: fast enough to run, about 20% quicker to build than -O2.
optimise=-O1
LSAN_OPTIONS=suppressions=$PWD/tools/sanitizers/lsan.supp:print_suppressions=0 \
  build_and_test "${VKC_ASAN_BUILD_DIR:-build-asan}" -DVKCOLLIDE_SANITIZE=ON -- -E '^RenderDoc\.|^install\.'

# Every fuzz target for half a minute on its seeds (the README's Fuzzing section has the long runs).
bash tools/run_fuzz.sh "${VKC_FUZZ_SECONDS:-30}"
echo "run_tests: every stage passed"
