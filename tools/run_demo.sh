#!/usr/bin/env bash
# The README's main job: installs what is missing, builds the vkcollide CLI and runs the harness on
# the bundled demo scene (lavapipe unless VK_DRIVER_FILES says otherwise): `detect` writes
# out/demo-report.json (an argument picks the method, default exact), then `compare` prints every
# method beside the exact oracle, frame by frame (its report out/demo-compare.json, images in
# out/demo-images/).
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
# ebpi: one absolute tolerance for every demo pair, so the printed table compares like with like
# (compare's default, 2% of each pair's own volume, works as well), cast on the compute backend:
# the same hits as ray queries, several times faster on lavapipe.
"$build/tools/cli/vkcollide" compare tools/scenes/demo.json --tolerance 0.004 --ray-backend compute \
  --report out/demo-compare.json --images out/demo-images
