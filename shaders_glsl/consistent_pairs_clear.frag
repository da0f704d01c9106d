// Consistent pairs, a peel's clear as a draw (fullscreen_triangle.vert, depth test ALWAYS with
// write): depth 1 (the far plane) and the background texel (depth 1, no object), drawn with an
// instance only in an iteration that runs, where a load-op clear would clear in every iteration.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs.h"

layout(location = 0) out uvec4 outLayer;

void main() {
    gl_FragDepth = 1.0;
    outLayer = uvec4(floatBitsToUint(1.0), kConsistentPairsNoObject, 0u, 0u);
}
