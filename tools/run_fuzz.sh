#!/usr/bin/env bash
# Fuzzes the untrusted-input readers (issue 15): builds tests/fuzz's libFuzzer targets with clang-14
# into build-fuzz/, then runs them on seeds gathered at run time from ../shared and the bundled
# scenes, as many at once as the machine has cores (each target is one process of one thread).
# Fails (exit 1) on any crash, sanitizer report, leak, timeout or OOM; the input that caused it is
# kept in out/fuzz/.
#   tools/run_fuzz.sh [SECONDS_PER_TARGET]   (default 60)
#   tools/run_fuzz.sh --build-only           builds the targets and stops
# VKC_FUZZ_JOBS=N runs N targets at once (default: the cores);
# VKC_FUZZ_RUNS=N stops a target after N executions (the time still caps it); VKC_FUZZ_MAX_LEN
# bounds an input's bytes (default 8192); VKC_FUZZ_TARGETS
# picks targets (e.g. "fuzz_mesh_ply fuzz_scene_file"); VKC_SHARED_DIR overrides ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build_only=0
[ "${1:-}" = --build-only ] && build_only=1 && shift
seconds=${1:-60}
jobs=${VKC_FUZZ_JOBS:-$(nproc)}
runs=${VKC_FUZZ_RUNS:--1}
# Longer inputs only slow each run down; seeds are cut to this length when loaded.
max_len=${VKC_FUZZ_MAX_LEN:-8192}
shared=${VKC_SHARED_DIR:-$root/../shared}
build=${VKC_FUZZ_BUILD_DIR:-build-fuzz}
targets=(${VKC_FUZZ_TARGETS:-fuzz_scene_file fuzz_mesh_off fuzz_mesh_stl fuzz_mesh_ply fuzz_mesh_gltf
                             fuzz_mesh_glb fuzz_mesh_obj fuzz_mesh_checks})

bash tools/install_deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DVKCOLLIDE_BUILD_FUZZ=ON \
  -DVKCOLLIDE_BUILD_TESTS=OFF -DVKCOLLIDE_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
[ "$build_only" -eq 1 ] && exit 0

work=$(mktemp -d /tmp/vkc-run-fuzz-XXXXXX)
trap 'rm -rf "$work"' EXIT
artifacts=$root/out/fuzz
mkdir -p "$artifacts"

# Copies the files matching the patterns into seed folder $1, skipping those over 1 MB.
seed() {
  local dir=$work/seeds/$1 file
  shift
  mkdir -p "$dir"
  for file in "$@"; do
    [ -f "$file" ] && [ "$(stat -c %s "$file")" -le 1048576 ] && cp "$file" "$dir/" || true
  done
}
meshes=$shared/meshes
bad=$shared/bad-input
seed fuzz_scene_file tools/scenes/*.json tools/scenes/bad/*.json tests/tools/scenes/*.json "$bad"/*.json
# The scene target skips inputs that could name files outside its empty folder: bare file names.
sed -i -E 's#"(\.\./|\./|/)([^"/]*/)*([^"/]*)"#"\3"#g' "$work"/seeds/fuzz_scene_file/*
for format in off stl ply gltf glb obj; do
  seed fuzz_mesh_$format "$meshes"/*.$format "$meshes"/*/*.$format "$bad"/*.$format
done
# The big PLYs as truncated copies: their headers and first records.
for file in "$meshes"/*.ply; do head -c 65536 "$file" >"$work/seeds/fuzz_mesh_ply/head-$(basename "$file")"; done
# glTF and GLB: one triangle (positions float 0,0,0 1,0,0 0,1,0; indices u16 0,1,2).
z='\x00\x00\x00\x00' one='\x00\x00\x80\x3f'  # printf formats: shell strings cannot hold NUL
printf "$z$z$z$one$z$z$z$one$z"'\x00\x00\x01\x00\x02\x00\x00\x00' >"$work/bin"
gltf_json() {  # $1: the buffer's uri member, or nothing for GLB's BIN chunk
  printf '{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],'
  printf '"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],'
  printf '"buffers":[{"byteLength":44%s}],' "$1"
  printf '"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],'
  printf '"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},'
  printf '{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}]}'
}
gltf_json ",\"uri\":\"data:application/octet-stream;base64,$(base64 -w0 "$work/bin")\"" \
  >"$work/seeds/fuzz_mesh_gltf/triangle.gltf"
le32() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x00\\x00"; }
json=$(gltf_json "")
while [ $(( ${#json} % 4 )) -ne 0 ]; do json="$json "; done
{
  printf 'glTF'; le32 2; le32 $((12 + 8 + ${#json} + 8 + 44))
  le32 ${#json}; printf 'JSON'; printf '%s' "$json"
  le32 44; printf 'BIN\x00'; cat "$work/bin"
} >"$work/seeds/fuzz_mesh_glb/triangle.glb"
mkdir -p "$work/seeds/fuzz_mesh_checks"  # decodes raw bytes: no file seeds

# fuzz TARGET: runs one target; its summary line goes to $work/TARGET.summary, its log (printed on a
# failure) to $work/TARGET.log.
fuzz() {
  local target=$1 corpus=$work/corpus/$1 log=$work/$1.log status=0 done_line
  mkdir -p "$corpus" "$work/tmp/$target"  # the target's scratch files, removed with $work
  TMPDIR=$work/tmp/$target "$build/tests/fuzz/$target" -max_total_time="$seconds" -runs="$runs" -timeout=10 \
    -rss_limit_mb=2048 -max_len="$max_len" -artifact_prefix="$artifacts/$target-" "$corpus" "$work/seeds/$target" \
    >"$log" 2>&1 || status=$?
  done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1 || true)
  if [ "$status" -ne 0 ] || [ -z "$done_line" ]; then
    tail -n 60 "$log"
    echo "$target: FAILED (exit $status); input kept in $artifacts/" >"$work/$target.summary"
    return 1
  fi
  echo "$target: $done_line, corpus $(ls "$corpus" | wc -l) new inputs" >"$work/$target.summary"
}

failed=0
running=0
for target in "${targets[@]}"; do
  echo "== $target: ${seconds}s$([ "$runs" -ge 0 ] && echo ", at most $runs runs"), seeds: $(ls "$work/seeds/$target" | wc -l)"
  fuzz "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done

echo "== run_fuzz summary (${seconds}s per target, $jobs at once)"
for target in "${targets[@]}"; do cat "$work/$target.summary"; done
exit $failed
