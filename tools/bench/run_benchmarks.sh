#!/usr/bin/env bash
# Builds bench_broadphase, bench_oracle, bench_aabb_tree, bench_stencil, bench_consistent_pairs, bench_ldi, bench_ebpi
# and bench_record (-DVKCOLLIDE_BUILD_BENCH=ON) and writes
# one CSV per binary under out/bench/ (plus the console table to stdout, and bench_stencil.png, the
# stencil method's scaling plot, via gnuplot). Not run by CI. Extra
# arguments go to every binary, e.g. --benchmark_filter=sphere or --benchmark_min_time=1 (default
# 0.2 s per case). Env: BUILD_DIR (default build-bench), VKC_SHARED_DIR, VKC_BENCH_LARGE_MESHES=1,
# VK_DRIVER_FILES, VKC_BENCH_COMPARE_PAIRS=1 (bench_aabb_tree: ours vs FCL vs oracle lists, stderr).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench}"
out="$repo/out/bench"
jobs="${JOBS:-1}"  # shared 2-core machines: one compile at a time unless told otherwise

cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVKCOLLIDE_BUILD_BENCH=ON -DVKCOLLIDE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$jobs" --target bench_broadphase bench_oracle bench_aabb_tree bench_stencil bench_consistent_pairs \
  bench_ldi bench_ebpi bench_record

mkdir -p "$out"
# Context for reading the figures later: which CPU and which Vulkan driver produced them.
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  lscpu | grep -E "Model name|^CPU\(s\)" || true
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "VK_DRIVER_FILES: ${VK_DRIVER_FILES:-(loader default)}"
  (vulkaninfo --summary 2>/dev/null | grep -E "deviceName|driverInfo" || true)
} > "$out/machine.txt"

for bench in bench_broadphase bench_oracle bench_aabb_tree bench_stencil bench_consistent_pairs bench_ldi bench_ebpi \
  bench_record; do
  "$build/tools/bench/$bench" --benchmark_min_time=0.2 "$@" \
    --benchmark_out="$out/$bench.csv" --benchmark_out_format=csv
done
# Paper 1's Figs 9-10 as a picture: stencil time against object and triangle count.
gnuplot -e "csv='$out/bench_stencil.csv'; png='$out/bench_stencil.png'" "$repo/tools/bench/plot_stencil.gp"
echo "CSV files, bench_stencil.png and machine.txt in $out"
