// The peeling passes' draws, decided on the GPU (paper 2, §3.2: passes 2..n_max): one
// VkDrawIndexedIndirectCommand per (layer k in 1..cap-1, tile), drawing the tile's object once
// when k < n_max(tile) and not at all otherwise, so the host never waits for n_max.
// Command (k - 1) * tileCount + tile, 5 uints each. After them, at (cap - 1) * tileCount + k - 1,
// pass k's stencil clear (a VkDrawIndirectCommand in the same stride, its fifth word unused): one
// atlas-wide triangle when some tile has k < n_max, none otherwise, so that a pass the scene does
// not need costs neither its draws nor its clear.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"

layout(local_size_x = kLdiGroupSize) in;

void main() {
    uint index = ldiThreadIndex();
    uint tileCommands = (push.layerCap - 1u) * push.tileCount;
    if (index >= tileCommands + push.layerCap - 1u) return;
    uint base = index * 5u;
    if (index >= tileCommands) {
        uint layer = index - tileCommands + 1u;
        bool needed = false;
        for (uint tile = 0u; tile < push.tileCount; ++tile) needed = needed || layer < stats[tile].layers;
        commands[base] = 3u;
        commands[base + 1u] = needed ? 1u : 0u;
        commands[base + 2u] = 0u;
        commands[base + 3u] = 0u;
        commands[base + 4u] = 0u;
        return;
    }
    uint layer = index / push.tileCount + 1u, tile = index % push.tileCount;
    commands[base] = tiles[tile].indexCount;
    commands[base + 1u] = layer < stats[tile].layers ? 1u : 0u;
    commands[base + 2u] = tiles[tile].firstIndex;
    commands[base + 3u] = 0u;  // vertexOffset: indices are mesh-local
    commands[base + 4u] = 0u;  // firstInstance
}
