// Intersection volume (paper 2, §3.3a), per pixel: pair p's LDIs are tiles 2p (object a) and 2p + 1
// (b), over one VoI footprint with opposite outside faces. The inside intervals of both, turned into
// world coordinates along the ray axis in double, are intersected; the overlap length is written to
// the pair's intersection-depth image and summed over the workgroup in a fixed-order tree, one
// partial sum per workgroup (ldi_volume_sum.comp adds them). A truncated LDI (n_max > cap) adds 0.
// One thread per (pixel, pair): x covers the tile's pixels, y the pairs.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"

layout(local_size_x = kLdiVolumeGroupSize) in;

shared double partial[kLdiVolumeGroupSize];

double worldDepth(uint tile, uint pixel, uint k, uint n) {
    double near = double(tiles[tile].nearWorld), range = double(tiles[tile].farWorld) - near;
    float depth = k < n ? layerDepth(layers[layerIndex(tile, pixel, k)]) : 1.0;
    return near + double(depth) * range;
}

// Overlap length of the two pixels' inside intervals (entry k, leave k + 1; an odd count closes at
// the far plane), read straight from the sorted layers.
double overlap(uint tileA, uint tileB, uint pixel) {
    uint na = peeledLayers(tileA, pixel), nb = peeledLayers(tileB, pixel);
    double length = 0.0lf;
    for (uint i = 0u; i < na; i += 2u) {
        double a0 = worldDepth(tileA, pixel, i, na), a1 = worldDepth(tileA, pixel, i + 1u, na);
        double aLo = min(a0, a1), aHi = max(a0, a1);
        for (uint j = 0u; j < nb; j += 2u) {
            double b0 = worldDepth(tileB, pixel, j, nb), b1 = worldDepth(tileB, pixel, j + 1u, nb);
            length += max(0.0lf, min(aHi, max(b0, b1)) - max(aLo, min(b0, b1)));
        }
    }
    return length;
}

void main() {
    uint pixel = gl_GlobalInvocationID.x, pair = gl_WorkGroupID.y, thread = gl_LocalInvocationID.x;
    // Whole workgroups leave together (pair is uniform), before any barrier.
    if (pair >= push.pairCount) return;
    uint tileA = 2u * pair, tileB = tileA + 1u;
    uint perTile = push.resolution * push.resolution;
    bool truncated = stats[tileA].layers > push.layerCap || stats[tileB].layers > push.layerCap;
    double length = 0.0lf;
    if (pixel < perTile) {
        if (!truncated) length = overlap(tileA, tileB, pixel);
        depthImage[pair * perTile + pixel] = float(length);
    }
    partial[thread] = length;
    barrier();
    for (uint width = kLdiVolumeGroupSize / 2u; width > 0u; width /= 2u) {
        if (thread < width) partial[thread] += partial[thread + width];
        barrier();
    }
    if (thread == 0u) volumePartials[pair * gl_NumWorkGroups.x + gl_WorkGroupID.x] = partial[0];
}
