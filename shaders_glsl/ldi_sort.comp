// Sorting the peeled layers (paper 2, §3.2, Fig. 4): per pixel, insertion sort of its
// min(count, cap) layers by depth from the near plane; on a tie (within float precision) the
// entry (front) face comes first, as in the CPU reference, so touching crossings read as an empty
// interval. Then the paper's §7 self-collision test: the sorted facings must alternate entry, leave, entry, ...; a pixel that
// breaks it is counted, and its tile pixel and depth range widen the tile's invalid region.
// One thread per LDI pixel; the layers are sorted in place.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"

layout(local_size_x = kLdiGroupSize) in;

// Crossings closer than this (depth units, 2^-21 of the depth range) are a tie: float depths of
// two triangles meeting at a silhouette or a shared vertex may land in either order.
const float kTie = 1.0 / 2097152.0;

// a before b in the sorted order.
bool before(float a, float b) {
    float da = layerDepth(a), db = layerDepth(b);
    if (abs(da - db) <= kTie) return a > 0.0 && b < 0.0;
    return da < db;
}

void main() {
    uint index = ldiThreadIndex();
    uint perTile = push.resolution * push.resolution;
    if (index >= push.tileCount * perTile) return;
    uint tile = index / perTile, pixel = index % perTile;
    uint n = peeledLayers(tile, pixel);
    for (uint i = 1u; i < n; ++i) {
        float value = layers[layerIndex(tile, pixel, i)];
        uint j = i;
        for (; j > 0u && before(value, layers[layerIndex(tile, pixel, j - 1u)]); --j)
            layers[layerIndex(tile, pixel, j)] = layers[layerIndex(tile, pixel, j - 1u)];
        layers[layerIndex(tile, pixel, j)] = value;
    }
    // A truncated pixel holds only the first `cap` fragments in draw order, not the nearest ones:
    // their facings say nothing about self-intersection.
    if (stencilCount(tile, pixel) > push.layerCap) return;
    bool valid = true;
    for (uint k = 0u; k < n && valid; ++k) valid = (layers[layerIndex(tile, pixel, k)] > 0.0) == (k % 2u == 0u);
    if (valid) return;
    atomicAdd(stats[tile].invalidPixels, 1u);
    uint x = pixel % push.resolution, y = pixel / push.resolution;
    atomicMin(stats[tile].minX, x);
    atomicMin(stats[tile].minY, y);
    atomicMax(stats[tile].maxX, x);
    atomicMax(stats[tile].maxY, y);
    // Depths in [0, 1] order like their bit patterns.
    atomicMin(stats[tile].minDepthBits, floatBitsToUint(layerDepth(layers[layerIndex(tile, pixel, 0u)])));
    atomicMax(stats[tile].maxDepthBits, floatBitsToUint(layerDepth(layers[layerIndex(tile, pixel, n - 1u)])));
}
