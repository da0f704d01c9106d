#!/usr/bin/env bash
# The README's test command (and CI's): installs what is missing, builds everything, runs the whole
# suite on lavapipe under the Khronos validation layer; then the sanitizer stage (tests labelled
# `sanitize`, built with ASan+UBSan: every host-side path and a GPU-driven frame of every method, see
# tests/CMakeLists.txt), and a short run of every fuzz target (tools/run_fuzz.sh). Fails on any failing
# test, on any skipped test (CI must provide every feature a test needs: a skip there means lost
# coverage), on a stage that ran fewer tests than it has, and on any fuzz finding. Prints each stage's
# wall time, the slowest tests of each suite and the slowest translation units of each build
# (tests/README.md keeps the table from a fresh clone).
#   tools/run_tests.sh           every stage (CI; about 30 minutes on 2 cores from a fresh clone)
#   tools/run_tests.sh --quick   the lavapipe suite only (about 5 minutes after a build); fails on
#                                any test slower than a minute, naming it
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: tools/run_tests.sh [--quick]" >&2; exit 2 ;;
esac

# The number of tests each stage has: a stage that runs fewer lost some (a target not built, a
# discovery that found nothing, a label dropped). Raise them with the tests you add.
min_lavapipe_tests=687
min_sanitizer_tests=479
# A test slower than this (seconds) fails the quick run: long checks belong in benchmarks.
slow_test_limit=60

export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.json}
export VKC_REQUIRE_DEVICE=1
# lavapipe's compiled shaders are shared by every test process of both suites through Mesa's disk
# cache, kept in the checkout (out/) so that a fresh clone starts cold, as CI's does: a pipeline is
# compiled by LLVM once per run instead of once per test (the largest ebpi shaders take 50 s).
export MESA_SHADER_CACHE_DIR=${MESA_SHADER_CACHE_DIR:-$PWD/out/mesa-shader-cache}

work=$(mktemp -d /tmp/vkc-run-tests-XXXXXX)
trap 'rm -rf "$work"' EXIT
stages=()

# stage NAME COMMAND...: runs the command, prints and keeps its wall time.
stage() {
  local name=$1 start=$SECONDS
  shift
  echo "run_tests: stage '$name'"
  "$@"
  stages+=("$(printf '%-28s %6d s' "$name" $((SECONDS - start)))")
  echo "run_tests: stage '$name' took $((SECONDS - start)) s"
}

# print_failures LOG: what each failed test printed, gathered at the end (CI keeps only the tail of a
# log, and parallel ctest interleaves a failure's output with the passes that follow it).
print_failures() {
  echo "run_tests: the failed tests' output:" >&2
  awk '/^[0-9]+\/[0-9]+ Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Exception|\*\*\*Timeout)/ {keep = 1}
       /^[0-9]+\/[0-9]+ Test +#[0-9]+: .* Passed/ || /^ +Start +[0-9]+: / {keep = 0}
       keep' "$1" | tail -n 400 >&2
}

# test_times LOG: "SECONDS NAME" for every test ctest ran, slowest first. Lists are cut with sed,
# which reads to the end: head would exit early, and with pipefail the writer's SIGPIPE (a list
# past the pipe's 64 KiB) would fail the run with exit 141.
test_times() {
  sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.+.* ([0-9.]+) sec$/\2 \1/p' "$1" | sort -rn
}

# slowest_units BUILD_DIR: the 20 slowest compiles of objects the build still has, by their last
# compile, in seconds (.ninja_log keeps objects of files since compiled otherwise, e.g. into a unity batch).
slowest_units() {
  ninja -C "$1" -t targets all | sed -n 's/^\(.*\.o\): .*/\1/p' >"$work/units"
  awk -F'\t' 'FNR == NR {live[$1]; next}
               FNR > 1 && ($4 in live) {t[$4] = ($2 - $1) / 1000}
               END {for (o in t) printf "%8.1f  %s\n", t[o], o}' "$work/units" "$1/.ninja_log" |
    sort -rn | sed -n '1,20p'
}

configure() {  # BUILD_DIR [CMAKE_OPTION...]
  local build=$1
  shift
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVKCOLLIDE_BUILD_TESTS=ON -DVKCOLLIDE_BUILD_TOOLS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$optimise -g1 -DNDEBUG" "$@" >/dev/null
}

build() {  # BUILD_DIR [TARGET...] (default: every target)
  local build=$1 targets=()
  shift
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build "$build" -j"$(nproc)" "${targets[@]}"
}

# suite NAME BUILD_DIR MIN_TESTS [CTEST_OPTION...]: runs the tests; a suite that failed, ran fewer than
# MIN_TESTS or skipped one fails. Leaves the log in $work/NAME.log.
suite() {
  local name=$1 build=$2 min=$3 log=$work/$1.log
  shift 3
  if ! ctest --test-dir "$build" --output-on-failure --no-tests=error -j"$(nproc)" --timeout 900 "$@" |
    tee "$log"; then
    print_failures "$log"
    exit 1
  fi
  local ran skipped
  ran=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
  if [ "${ran:-0}" -lt "$min" ]; then
    echo "run_tests: ${ran:-0} test(s) ran in the $name suite, fewer than the $min it has" >&2
    exit 1
  fi
  skipped=$(grep -c "\*\*\*Skipped\|Not Run" "$log" || true)
  if [ "$skipped" -ne 0 ]; then
    echo "run_tests: $skipped test(s) skipped in the $name suite; CI requires every test to run" >&2
    exit 1
  fi
}

report() {
  echo "== run_tests: wall time of each stage"
  printf '%s\n' "${stages[@]}"
  local name
  for name in lavapipe sanitizer; do
    [ -e "$work/$name.log" ] || continue
    echo "== run_tests: the 20 slowest tests of the $name suite (s)"
    test_times "$work/$name.log" | sed -n '1,20p'
  done
  for name in "${lavapipe_build:-}" "${sanitizer_build:-}"; do
    [ -n "$name" ] && [ -e "$name/.ninja_log" ] || continue
    echo "== run_tests: the 20 slowest translation units of $name (s)"
    slowest_units "$name"
  done
}

stage "install packages" bash tools/install_deps.sh

# Line tables only (-g1): backtraces keep their file:line, and the CGAL-heavy oracle compiles in
# about two thirds of the time full debug information takes (CI's budget is the build's).
optimise=-O2
lavapipe_build=${VKC_BUILD_DIR:-build}
stage "lavapipe: configure" configure "$lavapipe_build"
stage "lavapipe: build" build "$lavapipe_build"
stage "lavapipe: suite" suite lavapipe "$lavapipe_build" "$min_lavapipe_tests"

if [ "$quick" -eq 1 ]; then
  report
  slow=$(test_times "$work/lavapipe.log" | awk -v limit="$slow_test_limit" '$1 > limit')
  if [ -n "$slow" ]; then
    echo "run_tests: tests slower than $slow_test_limit s (make them smaller or move them to a benchmark):" >&2
    echo "$slow" >&2
    exit 1
  fi
  exit 0
fi

# ASan+UBSan (UBSan findings abort), on the tests labelled `sanitize` and only the targets they need
# (vkc_sanitizer_suite). LeakSanitizer suppresses only the system's driver, loader and validation
# layer (tools/sanitizers/lsan.supp). Left out: RenderDoc's capture tests (RenderDoc hooks the
# process's Vulkan calls and memory, which ASan does not survive). The install test carries no label
# (its consumer would link the installed, instrumented library without the sanitizer runtimes).
# -O1, as ASan's documentation advises: fast enough to run, about 20% quicker to build than -O2.
optimise=-O1
sanitizer_build=${VKC_ASAN_BUILD_DIR:-build-asan}
stage "sanitizer: configure" configure "$sanitizer_build" -DVKCOLLIDE_SANITIZE=ON
stage "sanitizer: build" build "$sanitizer_build" vkc_sanitizer_suite
LSAN_OPTIONS=suppressions=$PWD/tools/sanitizers/lsan.supp:print_suppressions=0 \
  stage "sanitizer: suite" suite sanitizer "$sanitizer_build" "$min_sanitizer_tests" \
  -L '^sanitize$' -E '^RenderDoc\.'

# Every fuzz target for half a minute on its seeds (the README's Fuzzing section has the long runs).
stage "fuzz: build" bash tools/run_fuzz.sh --build-only
stage "fuzz: run" bash tools/run_fuzz.sh "${VKC_FUZZ_SECONDS:-30}"
report
echo "run_tests: every stage passed"
