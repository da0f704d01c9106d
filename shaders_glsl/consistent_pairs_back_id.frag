// Identifies the nearest back face of each window slot (paper 3, section 4.3, back/back points):
// the fragment whose depth equals the slot's atomicMin from the consistency pass writes its object
// and the packed normal of its triangle. Same triangle, same pixel, invariant position: the depths
// compare exactly.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs_sets.h"

layout(set = 1, binding = kConsistentPairsBindingBackDepth, r32ui) readonly uniform uimage2DArray backDepth;
layout(set = 1, binding = kConsistentPairsBindingBackId, rg32ui) writeonly uniform uimage2DArray backId;

#include "shared/consistent_pairs_fragment.h"

void main() {
    vec3 normal = triangleNormal();
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    float z = gl_FragCoord.z;
    uvec4 front;
    int k = nearestFront(pixel, z, front);
    if (!ownedSlot(k)) return;
    if (imageLoad(backDepth, ivec3(pixel, k)).x == floatBitsToUint(z))
        imageStore(backId, ivec3(pixel, k), uvec4(inObject + 1u, packNormal(normal), 0u, 0u));
}
