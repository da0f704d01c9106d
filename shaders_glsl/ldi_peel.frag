// Depth peeling, the routed fragment (paper 2, §4): the stencil test (EQUAL layer, increment and
// clamp on pass and fail) lets exactly the (layer + 1)-th fragment of each pixel through, and the
// early tests make that the only invocation. It stores its depth and facing into the tile's layer
// buffer: modern Vulkan's storage writes from the fragment stage replace the paper's per-layer
// depth read-backs (and its colour-buffer regions), so the count pass keeps layer 1 as well.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/ldi.h"

layout(early_fragment_tests) in;

layout(set = 0, binding = kLdiBindingTiles, std430) readonly buffer Tiles { LdiTileGpu tiles[]; };
// The drawn (tile, layer)'s image (dynamic offset): res^2 pixels.
layout(set = kLdiSetTileLayers, binding = kLdiBindingTileLayers, std430) writeonly buffer TileLayer { float tileLayer[]; };

layout(push_constant) uniform Push { LdiDrawPush push; };

void main() {
    LdiTileGpu tile = tiles[push.tile];
    uvec2 pixel = uvec2(gl_FragCoord.xy) - uvec2(tile.originX, tile.originY);
    // Facing * (depth + 1): see ldi_compute.glsl for the precision.
    bool entry = gl_FrontFacing == (tile.entryIsFront != 0u);
    float stored = (entry ? 1.0 : -1.0) * (gl_FragCoord.z + 1.0);
    tileLayer[pixel.y * push.resolution + pixel.x] = stored;
}
