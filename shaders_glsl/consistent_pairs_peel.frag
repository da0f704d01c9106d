// Front-face depth peeling with object ids (paper 3, section 4.1): with back faces culled and the
// depth test LESS, keeps per pixel the nearest front face strictly behind the previous layer, as
// (depth bits, object + 1, packed normal of the triangle hit). Ties in depth are ordered by object
// id (objects are drawn in increasing order, so LESS keeps the smallest id first), so coincident
// faces are not lost.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs_sets.h"
#include "shared/consistent_pairs_fragment.h"

layout(location = 0) out uvec4 outLayer;

void main() {
    vec3 normal = triangleNormal();
    float z = gl_FragCoord.z;
    uint id = inObject + 1u;
    if (push.firstLayer == 0u) {
        uvec4 previous = imageLoad(layers, ivec3(ivec2(gl_FragCoord.xy), int(layerSlot(push.windowBase - 1u))));
        float previousZ = uintBitsToFloat(previous.x);
        // Nothing was in front at this pixel: nothing is behind either.
        if (previous.y == kConsistentPairsNoObject || z < previousZ || (z == previousZ && id <= previous.y)) discard;
    }
    outLayer = uvec4(floatBitsToUint(z), id, packNormal(normal), 0u);
}
