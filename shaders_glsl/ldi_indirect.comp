// The peeling passes' draws, decided on the GPU (paper 2, §3.2: passes 2..n_max): one
// VkDrawIndexedIndirectCommand per (layer k in 1..cap-1, tile), drawing the tile's object once
// when k < n_max(tile) and not at all otherwise, so the host never waits for n_max.
// Command (k - 1) * tileCount + tile, 5 uints each.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"

layout(local_size_x = kLdiGroupSize) in;

void main() {
    uint index = ldiThreadIndex();
    if (index >= (push.layerCap - 1u) * push.tileCount) return;
    uint layer = index / push.tileCount + 1u, tile = index % push.tileCount;
    uint base = index * 5u;
    commands[base] = tiles[tile].indexCount;
    commands[base + 1u] = layer < stats[tile].layers ? 1u : 0u;
    commands[base + 2u] = tiles[tile].firstIndex;
    commands[base + 3u] = 0u;  // vertexOffset: indices are mesh-local
    commands[base + 4u] = 0u;  // firstInstance
}
