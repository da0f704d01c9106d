#!/usr/bin/env bash
# Installs everything vkcollide needs on a fresh Debian 12 machine: toolchain, libraries, the
# Vulkan validation layer, RenderDoc's headless parts, GLFW and a virtual X server (the example's
# window, tested under Xvfb), and Mesa from bookworm-backports (its
# lavapipe has ray queries and acceleration structures; bookworm's own Mesa 22 does not).
# Idempotent and quiet when everything is already installed. Writes no host name: the backports
# entry copies the URIs of the machine's own Debian entry.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libvulkan-dev libvulkan-volk-dev vulkan-validationlayers vulkan-tools glslang-tools
  libglm-dev nlohmann-json3-dev libcli11-dev libstb-dev libtinyobjloader-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcgal-dev libgmp-dev libmpfr-dev libfcl-dev libbullet-dev libboost-dev
  libspirv-cross-c-shared-dev spirv-cross
  renderdoccmd librenderdoc librenderdoc-dev
  gnuplot-nox
  clang-14 libfuzzer-14-dev
  libglfw3-dev xvfb xauth
)
backports_packages=(mesa-vulkan-drivers)

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
  done
}

# The URIs of the machine's own Debian main entry (deb822 or one-line format).
debian_uris() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    awk '/^URIs:/ {u=$2} /^Suites:/ && $0 ~ /[ \t]bookworm([ \t]|$)/ {print u; exit}' "$f"
  done | sed -n 1p  # sed reads to the end: no SIGPIPE for the loop under pipefail
  if [ -e /etc/apt/sources.list ]; then
    awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list
  fi
}

backports_list=/etc/apt/sources.list.d/vkcollide-bookworm-backports.sources
mesa_from_backports() {
  dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null | grep -q "bpo12"
}

need=($(missing "${packages[@]}"))
if [ ${#need[@]} -eq 0 ] && mesa_from_backports; then
  exit 0
fi

if [ ! -e "$backports_list" ]; then
  uris=$(debian_uris | sed -n 1p)
  if [ -z "$uris" ]; then
    echo "install_deps: no Debian bookworm apt entry found to derive bookworm-backports from" >&2
    exit 1
  fi
  sudo_if_needed tee "$backports_list" >/dev/null <<SRC
Types: deb
URIs: $uris
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

export DEBIAN_FRONTEND=noninteractive
sudo_if_needed apt-get update -qq
sudo_if_needed apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
sudo_if_needed apt-get install -y -qq --no-install-recommends -t bookworm-backports \
  "${backports_packages[@]}" >/dev/null
echo "install_deps: done"
