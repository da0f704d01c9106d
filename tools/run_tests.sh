#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything, runs the whole suite on
# lavapipe under the Khronos validation layer. Fails on any failing test, and on any skipped test
# (CI must provide every feature a test needs: a skip there means lost coverage).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install_deps.sh
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.json}
export VKC_REQUIRE_DEVICE=1
build=${VKC_BUILD_DIR:-build}

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVKCOLLIDE_BUILD_TESTS=ON -DVKCOLLIDE_BUILD_TOOLS=ON >/dev/null
cmake --build "$build" -j"$(nproc)"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
ctest --test-dir "$build" --output-on-failure --no-tests=error -j"$(nproc)" --timeout 900 | tee "$log"

# A suite that lost its tests (a target not built, a discovery that found nothing) must not pass.
min_tests=300
ran=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
if [ "${ran:-0}" -lt "$min_tests" ]; then
  echo "run_tests: ${ran:-0} test(s) ran, fewer than the $min_tests this suite has" >&2
  exit 1
fi

skipped=$(grep -c "\*\*\*Skipped\|Not Run" "$log" || true)
if [ "$skipped" -ne 0 ]; then
  echo "run_tests: $skipped test(s) skipped; CI requires every test to run" >&2
  exit 1
fi
