#!/usr/bin/env bash
# The README's main job: installs what is missing, builds the vkcollide CLI and runs the harness on
# the bundled demo scene (lavapipe unless VK_DRIVER_FILES says otherwise), writing
# out/demo-report.json. An argument picks the method (default: exact).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install_deps.sh
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.json}
build=${VKC_BUILD_DIR:-build}

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target vkcollide-cli
mkdir -p out
"$build/tools/cli/vkcollide" detect tools/scenes/demo.json --method "${1:-exact}" \
  --report out/demo-report.json
