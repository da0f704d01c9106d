// Consistency test (paper 3, section 4.2), drawn over back faces: each back-face fragment is
// compared with the front face immediately in front of it (the deepest front layer strictly in
// front, or the object's own front face grazing it within the distance threshold and one pixel of
// its depth slope). A different
// object id is an inconsistent pair, i.e. a collision of the two objects: its candidate is
// flagged (candidate_flags.glsl); so is every other front between that one and the object's own front. Nested and hollow objects stay consistent, since a
// cavity's inner surface is a face of the hollow object itself. Also records, per window slot, the
// nearest back face (atomicMin of its depth bits) for the back/back collision points (4.3), and
// with keepImages the inconsistent fragments per pixel, for the harness's images.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"  // PairListHeader
#include "shared/consistent_pairs_sets.h"

layout(set = 1, binding = kConsistentPairsBindingBackDepth, r32ui) uniform uimage2DArray backDepth;
layout(set = 1, binding = kConsistentPairsBindingPairFlags, std430) buffer PairFlags { uint pairFlags[]; };
layout(set = 1, binding = kConsistentPairsBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 1, binding = kConsistentPairsBindingCandidateSlots, std430) readonly buffer CandidateSlots {
    uint candidateSlots[];
};
layout(set = 1, binding = kConsistentPairsBindingStats, std430) buffer Stats { ConsistentPairsStatsGpu stats; };
layout(set = 1, binding = kConsistentPairsBindingInconsistentImage, std430) buffer InconsistentImage {
    uint inconsistentImage[];  // resolution^2, row-major
};

#include "shared/consistent_pairs_fragment.h"

#include "candidate_flags.glsl"

// Whether one of this object's own front faces lies behind slot k of the window, in front of
// depth zLimit: the fronts after slot k, up to the first at or beyond zLimit.
bool ownFrontGrazes(ivec2 pixel, int k, float zLimit) {
    for (uint j = uint(k + 1); j < frame.layerCount; ++j) {
        uvec4 t = windowLayer(j, pixel);
        if (t.y == kConsistentPairsNoObject || uintBitsToFloat(t.x) >= zLimit) return false;
        if (t.y - 1u == inObject) return true;
    }
    return false;
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    float z = gl_FragCoord.z;
    // The back face's depth change across one pixel (constant over a triangle; before any return).
    float pixelDepthSlope = fwidth(z);
    uvec4 front;
    int k = nearestFront(pixel, z, front);
    if (!ownedSlot(k)) return;
    // Depths lie in [0, 1], where float bits order like the floats.
    imageAtomicMin(backDepth, ivec3(pixel, k), floatBitsToUint(z));
    uint frontObject = front.y - 1u;
    if (frontObject == inObject) return;
    // At a silhouette pixel an object's front and back faces meet at nearly the same depth, and the
    // interpolated front depth can land on or just behind the back face's: the strict test then
    // pairs the back face with whatever lies in front (another object a pixel or hundreds away).
    // The object's own front face within the distance threshold behind is its partner, not an
    // overlap (regressions/pair_1_1: gears 380 pixels apart reported from one such pixel). Any of
    // the fronts there, not only the deepest: in a crowd a third object's front can lie within the
    // threshold too (difftest 4242-158: cube and pinion 23 pixels apart paired). Grazing triangles
    // interpolate depth from vertices snapped to the rasterizer's subpixel grid, so the inversion
    // can exceed the threshold: allow the back face's own depth change across one pixel as well,
    // i.e. the own front lies within a pixel of this back face's surface (difftest 4242-1843: a
    // sphere's front 0.002 behind its back, slope 0.008 per pixel, paired it with a pinion 176
    // pixels away).
    if (ownFrontGrazes(pixel, k, z + thresholdDepth() + pixelDepthSlope)) return;
    // Every front face between the object's own nearest front face and this back face lies inside
    // it, not only the nearest: with X containing Y and Z along a ray (Xf Yf Yb Zf Zb Xb), X's back
    // face sees Zf in front, and Y, nested as deep, must be paired too. The window holds only
    // fronts behind the previous window's, so one that began earlier stops the scan at slot 0.
    for (int j = k; j >= 0; --j) {
        uint object = windowLayer(uint(j), pixel).y - 1u;
        if (object == inObject) break;
        flagCandidate(object, inObject, frame.candidateSlotMask);
    }
    atomicAdd(stats.inconsistentPixels, 1u);
    if (frame.inconsistentImage != 0u) atomicAdd(inconsistentImage[uint(pixel.y) * frame.resolution + uint(pixel.x)], 1u);
}
