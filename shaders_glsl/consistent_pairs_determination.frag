// Collision determination (paper 3, section 4.3), drawn over all faces: two surfaces on one ray, p
// and t, form a collision point when (1) their objects differ, (2) t is not deeper than p and (3)
// they are closer than the threshold. One of them is this fragment, the other a stored surface: a
// front layer of the window (front/front, back/front, front/back) or the nearest back face of the
// fragment's slot (back/back). Each point carries both objects, their front/back flags and the world
// normals of both triangles hit, computed on the GPU from the triangles' planes (the paper did this
// on the CPU from neighbouring points). Each stored layer is owned by one iteration, so a point is
// written once.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs_sets.h"
#include "shared/stencil.h"  // StencilListHeader: the same list header as the stencil method

layout(set = 1, binding = kConsistentPairsBindingBackDepth, r32ui) readonly uniform uimage2DArray backDepth;
layout(set = 1, binding = kConsistentPairsBindingBackId, rg32ui) readonly uniform uimage2DArray backId;
layout(set = 1, binding = kConsistentPairsBindingPoints, std430) buffer Points {
    StencilListHeader pointHeader;
    ConsistentPairsPointGpu points[];
};

#include "shared/consistent_pairs_fragment.h"

// One surface crossing on this pixel's ray.
struct Surface {
    uint object;
    vec3 normal;    // outward, of the triangle hit
    float z;        // depth
    bool front;
};

// Writes the point (t, p) with t not deeper than p (the paper's test 2), both as world positions
// with their triangles' normals.
void emitPoint(Surface p, Surface t) {
    uint slot = atomicAdd(pointHeader.count, 1u);
    if (slot >= frame.pointCapacity) return;
    vec3 wp = pixelWorld(gl_FragCoord.xy, p.z);
    vec3 wt = pixelWorld(gl_FragCoord.xy, t.z);
    uint flags = (p.front ? kConsistentPairsPointFrontP : 0u) | (t.front ? kConsistentPairsPointFrontT : 0u);
    points[slot] = ConsistentPairsPointGpu(wp.x, wp.y, wp.z, p.object, wt.x, wt.y, wt.z, t.object, p.normal.x, p.normal.y,
                              p.normal.z, flags, t.normal.x, t.normal.y, t.normal.z, 0u);
}

void main() {
    Surface fragment = Surface(inObject, triangleNormal(), gl_FragCoord.z, gl_FrontFacing);
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint id = inObject + 1u;
    for (uint k = 0u; k + 1u < frame.layerCount; ++k) {
        uvec4 t = windowLayer(k, pixel);
        if (t.y == kConsistentPairsNoObject) break;
        Surface layer = Surface(t.y - 1u, unpackNormal(t.z), uintBitsToFloat(t.x), true);
        if (t.y == id || abs(fragment.z - layer.z) > thresholdDepth()) continue;
        // A front layer in front of the fragment: front/front or back/front. A back-face fragment in
        // front of a front layer: front/back. A front fragment in front of a front layer is that
        // layer's own fragment's front/front point, not written twice.
        if (layer.z <= fragment.z) emitPoint(fragment, layer);
        else if (!fragment.front) emitPoint(layer, fragment);
    }
    if (fragment.front) return;
    // Back/back: the nearest back face of the fragment's slot, in front of the fragment.
    uvec4 front;
    int k = nearestFront(pixel, fragment.z, front);
    if (!ownedSlot(k)) return;
    uint nearestBack = imageLoad(backDepth, ivec3(pixel, k)).x;
    if (nearestBack == kConsistentPairsNoDepth) return;
    uvec2 back = imageLoad(backId, ivec3(pixel, k)).xy;
    Surface stored = Surface(back.x - 1u, unpackNormal(back.y), uintBitsToFloat(nearestBack), false);
    if (stored.z < fragment.z && fragment.z - stored.z <= thresholdDepth() && back.x != kConsistentPairsNoObject &&
        back.x != id)
        emitPoint(fragment, stored);
}
