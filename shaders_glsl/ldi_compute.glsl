// Shared by the ldi_*.comp shaders: the one compute set and push block (every LDI compute pipeline
// has the same layout, kLdiComputeLayout), and reading a peeled, sorted LDI: the stencil count of a
// tile pixel, a layer's depth and facing, and whether a depth lies inside the object (§3.2: sorted
// layers alternate entry / leave from the near plane; an odd count closes at the far plane, where
// clipping cut the object off).
#include "shared/ldi.h"

layout(set = 0, binding = kLdiBindingTiles, std430) readonly buffer Tiles { LdiTileGpu tiles[]; };
layout(set = 0, binding = kLdiBindingLayers, std430) buffer Layers { float layers[]; };
layout(set = 0, binding = kLdiBindingStencilCounts, std430) readonly buffer StencilCounts { uint stencilCounts[]; };
layout(set = 0, binding = kLdiBindingTileStats, std430) buffer TileStats { LdiTileStatsGpu stats[]; };
layout(set = 0, binding = kLdiBindingCommands, std430) writeonly buffer Commands { uint commands[]; };
layout(set = 0, binding = kLdiBindingPairResults, std430) buffer PairResults { LdiPairResultGpu pairResults[]; };
layout(set = 0, binding = kLdiBindingDepthImage, std430) writeonly buffer DepthImage { float depthImage[]; };
layout(set = 0, binding = kLdiBindingInsideList, std430) buffer InsideList {
    LdiListHeader insideHeader;
    uvec2 inside[];
};

// Per pair, one double per workgroup of kLdiVolumeGroupSize pixels (ldi_volume -> ldi_volume_sum).
layout(set = 0, binding = kLdiBindingVolumePartials, std430) buffer VolumePartials { double volumePartials[]; };
layout(set = 0, binding = kLdiBindingIndices, std430) readonly buffer Indices { uint triangleIndices[]; };
layout(set = 0, binding = kLdiBindingPointTests, std430) readonly buffer PointTests { LdiPointTestGpu pointTests[]; };

layout(push_constant) uniform Push { LdiComputePush push; };

// A stored layer is facing * (depth + 1): depth in [0, 1] from the tile's near plane, facing +1 for
// an entry (front) face, -1 for a leaving one. depth + 1 lies in [1, 2], so a depth keeps 2^-23 of
// the depth range (the float's spacing there): the precision ldiVolumeErrorBound's depth term uses.

// The linear thread id of a grid that ldiDispatchGrid folded into rows of at most
// maxComputeWorkGroupCount[0] workgroups (the last row may overshoot: callers bounds-check). For
// the kLdiGroupSize shaders (gl_WorkGroupSize is not yet declared where this is included).
uint ldiThreadIndex() {
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * kLdiGroupSize + gl_LocalInvocationID.x;
}

uint stencilCount(uint tile, uint pixel) {
    uint x = (tile % push.atlasColumns) * push.resolution + pixel % push.resolution;
    uint y = (tile / push.atlasColumns) * push.resolution + pixel / push.resolution;
    uint byteIndex = y * push.atlasWidth + x;
    return (stencilCounts[byteIndex >> 2] >> ((byteIndex & 3u) * 8u)) & 0xffu;
}

// Layers of the pixel that were peeled: min(count, cap).
uint peeledLayers(uint tile, uint pixel) { return min(stencilCount(tile, pixel), push.layerCap); }

// Layer k of a pixel: each tile's layers one after another, each a res^2 image, so that a peeling
// draw binds only the (tile, layer) range it writes (ldi_peel.frag).
uint layerIndex(uint tile, uint pixel, uint k) {
    return (tile * push.layerCap + k) * push.resolution * push.resolution + pixel;
}

float layerDepth(float stored) { return abs(stored) - 1.0; }

// Whether depth z (tile depth space, [0, 1]) lies in an inside interval of the pixel's sorted layers.
bool insideAt(uint tile, uint pixel, float z) {
    uint n = peeledLayers(tile, pixel);
    for (uint k = 0u; k < n; k += 2u) {
        float entry = layerDepth(layers[layerIndex(tile, pixel, k)]);
        float leave = k + 1u < n ? layerDepth(layers[layerIndex(tile, pixel, k + 1u)]) : 1.0;
        if (z >= entry && z <= leave) return true;
    }
    return false;
}
