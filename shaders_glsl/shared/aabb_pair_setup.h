// One object pair's traversal entry (AabbPairGpu) from the two objects' world placements, written
// once in the common subset of GLSL and C++/GLM: aabb_pairs.comp builds the frame's pair table on
// the GPU with it, and the CPU reference (collision/aabb_tree/aabb_traversal_cpu.h) checks it.
// Affine maps are three double rows (x, y, z: the linear part, w: the translation); every
// operation has a fixed order (precise), so both sides round alike.
#ifndef VKC_SHARED_AABB_PAIR_SETUP_H
#define VKC_SHARED_AABB_PAIR_SETUP_H

#include "aabb_tree.h"

VKC_NAMESPACE_BEGIN

#ifdef __cplusplus
using dvec3 = glm::dvec3;
#endif

struct AabbAffineRows {
    dvec4 r0;
    dvec4 r1;
    dvec4 r2;
};

// The inverse of an invertible affine map: cofactors over the determinant, then -inverse * t.
VKC_INLINE AabbAffineRows aabbAffineInverse(AabbAffineRows m) {
    VKC_PRECISE double c00 = m.r1.y * m.r2.z - m.r1.z * m.r2.y;
    VKC_PRECISE double c01 = m.r1.z * m.r2.x - m.r1.x * m.r2.z;
    VKC_PRECISE double c02 = m.r1.x * m.r2.y - m.r1.y * m.r2.x;
    VKC_PRECISE double c10 = m.r0.z * m.r2.y - m.r0.y * m.r2.z;
    VKC_PRECISE double c11 = m.r0.x * m.r2.z - m.r0.z * m.r2.x;
    VKC_PRECISE double c12 = m.r0.y * m.r2.x - m.r0.x * m.r2.y;
    VKC_PRECISE double c20 = m.r0.y * m.r1.z - m.r0.z * m.r1.y;
    VKC_PRECISE double c21 = m.r0.z * m.r1.x - m.r0.x * m.r1.z;
    VKC_PRECISE double c22 = m.r0.x * m.r1.y - m.r0.y * m.r1.x;
    VKC_PRECISE double det = (m.r0.x * c00 + m.r0.y * c01) + m.r0.z * c02;
    VKC_PRECISE dvec3 i0 = dvec3(c00, c10, c20) / det;
    VKC_PRECISE dvec3 i1 = dvec3(c01, c11, c21) / det;
    VKC_PRECISE dvec3 i2 = dvec3(c02, c12, c22) / det;
    dvec3 t = dvec3(m.r0.w, m.r1.w, m.r2.w);
    VKC_PRECISE double t0 = -((i0.x * t.x + i0.y * t.y) + i0.z * t.z);
    VKC_PRECISE double t1 = -((i1.x * t.x + i1.y * t.y) + i1.z * t.z);
    VKC_PRECISE double t2 = -((i2.x * t.x + i2.y * t.y) + i2.z * t.z);
    AabbAffineRows inverse;
    inverse.r0 = dvec4(i0, t0);
    inverse.r1 = dvec4(i1, t1);
    inverse.r2 = dvec4(i2, t2);
    return inverse;
}

// Row `r` of a * b (affine maps): a's row times b's columns, plus a's translation.
VKC_INLINE dvec4 aabbComposeRow(dvec4 r, AabbAffineRows b) {
    VKC_PRECISE dvec4 row = (r.x * b.r0 + r.y * b.r1) + r.z * b.r2;
    return dvec4(row.x, row.y, row.z, row.w + r.w);
}

VKC_INLINE AabbAffineRows aabbCompose(AabbAffineRows a, AabbAffineRows b) {
    AabbAffineRows m;
    m.r0 = aabbComposeRow(a.r0, b);
    m.r1 = aabbComposeRow(a.r1, b);
    m.r2 = aabbComposeRow(a.r2, b);
    return m;
}

// The float, column-major matrix the traversal multiplies with.
VKC_INLINE mat4 aabbFloatMatrix(AabbAffineRows m) {
    return mat4(vec4(float(m.r0.x), float(m.r1.x), float(m.r2.x), 0.0f),
                vec4(float(m.r0.y), float(m.r1.y), float(m.r2.y), 0.0f),
                vec4(float(m.r0.z), float(m.r1.z), float(m.r2.z), 0.0f),
                vec4(float(m.r0.w), float(m.r1.w), float(m.r2.w), 1.0f));
}

// Pair (a, b) of trees treeA / treeB with levelsA / levelsB levels: B's space into A's as
// inverse(A) * B composed in double and rounded once, its inverse likewise, the box-test slacks
// from the objects' slack boxes (aabbBoxSlack), globalLevelBase left to the caller.
VKC_INLINE AabbPairGpu aabbPairEntry(AabbObjectGpu a, AabbObjectGpu b, uint objectA, uint objectB, uint levelsA,
                                     uint levelsB) {
    AabbAffineRows placeA;
    placeA.r0 = a.row0;
    placeA.r1 = a.row1;
    placeA.r2 = a.row2;
    AabbAffineRows placeB;
    placeB.r0 = b.row0;
    placeB.r1 = b.row1;
    placeB.r2 = b.row2;
    AabbAffineRows bToA = aabbCompose(aabbAffineInverse(placeA), placeB);
    AabbPairGpu pair;
    pair.bToA = aabbFloatMatrix(bToA);
    pair.aToB = aabbFloatMatrix(aabbAffineInverse(bToA));
    pair.treeA = a.tree;
    pair.treeB = b.tree;
    pair.levelCount = max(levelsA, levelsB);
    pair.globalLevelBase = 0u;
    vec2 slack = aabbBoxSlack(a.slackLo, a.slackHi, b.slackLo, b.slackHi, pair.bToA, pair.aToB);
    pair.slackA = slack.x;
    pair.slackB = slack.y;
    pair.objectA = objectA;
    pair.objectB = objectB;
    return pair;
}

VKC_NAMESPACE_END

#endif
