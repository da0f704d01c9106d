// Depth complexity per LDI (paper 2, §3.2): n_max of each tile is the largest stencil count the
// count pass left in it, read from the stencil aspect's copy. One thread per atlas pixel.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"

layout(local_size_x = kLdiGroupSize) in;

void main() {
    uint index = ldiThreadIndex();
    uint perTile = push.resolution * push.resolution;
    if (index >= push.tileCount * perTile) return;
    uint tile = index / perTile, pixel = index % perTile;
    uint count = stencilCount(tile, pixel);
    if (count != 0u) atomicMax(stats[tile].layers, count);
}
