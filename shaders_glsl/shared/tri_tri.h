// Triangle-triangle intersection test of Guigue & Devillers (2003), written once in the common
// subset of GLSL and C++/GLM: aabb_traverse.comp and collision/aabb_tree/tri_tri.cpp compile this same text.
// Inputs: two triangles in one space. Output: true when the closed triangles share a point.
// Why Guigue-Devillers rather than Moeller: every decision is the sign of a 3x3 determinant (no
// division, no interval end points), so the result agrees with the exact one whenever those
// determinants are not within rounding of zero, and the tolerance policy is a single rule:
//   a determinant with |det| <= kTriTriEpsilon * (the same sum of products with |terms|) is 0.
// Zero means "touching": the test is closed, so touching, shared vertices/edges and coplanar
// overlap count as intersecting (as in collision/reference/triangle_pairs.h); coplanar pairs go
// to a closed 2D test (edge crossings + vertex containment). Degenerate triangles (normal snapped
// to zero) never intersect, matching the reference that skips them.
#ifndef VKC_SHARED_TRI_TRI_H
#define VKC_SHARED_TRI_TRI_H

#include "glsl_cpp.h"

#ifdef __cplusplus
#include <glm/common.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vector_relational.hpp>
// GLSL's `precise` (SPIR-V NoContraction) keeps the GPU from fusing a*b+c; C++ compiled in ISO
// mode (-std=c++20, no extensions) does not contract either, so both round every operation alike.
#define VKC_PRECISE
#define VKC_INLINE inline
#else
#define VKC_PRECISE precise
#define VKC_INLINE
#define TtReal double
#define TtVec2 dvec2
#define TtVec3 dvec3
#endif

VKC_NAMESPACE_BEGIN

// The predicates run in double (GLSL: shaderFloat64, a base device requirement): float inputs
// convert exactly, so the only rounding left is the determinants' own, far below the tolerance.
#ifdef __cplusplus
using vec2 = glm::vec2;
using vec3 = glm::vec3;
using TtReal = double;
using TtVec2 = glm::dvec2;
using TtVec3 = glm::dvec3;
using uvec3 = glm::uvec3;
using glm::abs;
using glm::any;
using glm::greaterThan;
using glm::max;
using glm::min;
#endif

// 2^-48: in double, coordinate differences of float inputs are exact and a triple product rounds
// at most ~6 times, each by 2^-53 of its |term| bound (~2^-50 in all), so anything above this
// tolerance has the exact sign; below it we call it zero ("touching"). Float evaluation needed
// 2^-20, which turned triangles a micron apart on metre-sized meshes into hits.
VKC_CONSTANT(TtReal, kTriTriEpsilon, 3.552713678800501e-15)

VKC_INLINE TtReal ttSnap(TtReal det, TtReal bound) {
    return abs(det) <= kTriTriEpsilon * bound ? 0.0f : det;
}

// Plane through a triangle given by two edge vectors: normal and the |term| bound of each
// normal component (for the tolerance of later dot products).
struct TtPlane {
    TtVec3 normal;
    TtVec3 bound;
};

VKC_INLINE TtPlane ttPlane(TtVec3 a, TtVec3 b) {
    TtPlane plane;
    VKC_PRECISE TtReal ax = a.y * b.z;
    VKC_PRECISE TtReal bx = a.z * b.y;
    VKC_PRECISE TtReal ay = a.z * b.x;
    VKC_PRECISE TtReal by = a.x * b.z;
    VKC_PRECISE TtReal az = a.x * b.y;
    VKC_PRECISE TtReal bz = a.y * b.x;
    plane.normal = TtVec3(ax - bx, ay - by, az - bz);
    plane.bound = TtVec3(abs(ax) + abs(bx), abs(ay) + abs(by), abs(az) + abs(bz));
    return plane;
}

// A triangle whose normal is zero within tolerance (collinear or repeated vertices).
VKC_INLINE bool ttDegenerate(TtPlane plane) {
    return ttSnap(plane.normal.x, plane.bound.x) == 0.0f && ttSnap(plane.normal.y, plane.bound.y) == 0.0f &&
           ttSnap(plane.normal.z, plane.bound.z) == 0.0f;
}

// Signed (scaled) distance of v (relative to a point of the plane) to the plane, snapped.
VKC_INLINE TtReal ttSide(TtPlane plane, TtVec3 v) {
    VKC_PRECISE TtReal det = (v.x * plane.normal.x + v.y * plane.normal.y) + v.z * plane.normal.z;
    VKC_PRECISE TtReal bound = (abs(v.x) * plane.bound.x + abs(v.y) * plane.bound.y) + abs(v.z) * plane.bound.z;
    return ttSnap(det, bound);
}

// v . (a x b), snapped.
VKC_INLINE TtReal ttTriple(TtVec3 v, TtVec3 a, TtVec3 b) {
    return ttSide(ttPlane(a, b), v);
}

VKC_INLINE int ttSign(TtReal x) {
    return x > 0.0f ? 1 : (x < 0.0f ? -1 : 0);
}

VKC_INLINE TtReal ttOrient2(TtVec2 a, TtVec2 b, TtVec2 c) {
    VKC_PRECISE TtReal l = (b.x - a.x) * (c.y - a.y);
    VKC_PRECISE TtReal r = (b.y - a.y) * (c.x - a.x);
    VKC_PRECISE TtReal det = l - r;
    return ttSnap(det, abs(l) + abs(r));
}

// Closed segments ab and cd in the plane.
VKC_INLINE bool ttSegments(TtVec2 a, TtVec2 b, TtVec2 c, TtVec2 d) {
    int o1 = ttSign(ttOrient2(a, b, c));
    int o2 = ttSign(ttOrient2(a, b, d));
    int o3 = ttSign(ttOrient2(c, d, a));
    int o4 = ttSign(ttOrient2(c, d, b));
    if (o1 == 0 && o2 == 0) {
        // Collinear: the intervals along the segment's major axis must overlap.
        bool useX = abs(b.x - a.x) + abs(d.x - c.x) >= abs(b.y - a.y) + abs(d.y - c.y);
        TtReal a0 = useX ? a.x : a.y;
        TtReal b0 = useX ? b.x : b.y;
        TtReal c0 = useX ? c.x : c.y;
        TtReal d0 = useX ? d.x : d.y;
        return max(min(a0, b0), min(c0, d0)) <= min(max(a0, b0), max(c0, d0));
    }
    return o1 * o2 <= 0 && o3 * o4 <= 0;
}

// Closed triangle abc (either winding) contains p.
VKC_INLINE bool ttPointInTriangle(TtVec2 p, TtVec2 a, TtVec2 b, TtVec2 c) {
    int s0 = ttSign(ttOrient2(a, b, p));
    int s1 = ttSign(ttOrient2(b, c, p));
    int s2 = ttSign(ttOrient2(c, a, p));
    bool anyNegative = s0 < 0 || s1 < 0 || s2 < 0;
    bool anyPositive = s0 > 0 || s1 > 0 || s2 > 0;
    return !(anyNegative && anyPositive);
}

VKC_INLINE TtVec2 ttProject(TtVec3 p, uint axis) {
    return axis == 0u ? TtVec2(p.y, p.z) : (axis == 1u ? TtVec2(p.x, p.z) : TtVec2(p.x, p.y));
}

// Coplanar triangles: drop the normal's dominant axis, then some edge pair crosses or one
// triangle holds a vertex of the other (the closed 2D test).
VKC_INLINE bool ttCoplanar(TtVec3 p1, TtVec3 q1, TtVec3 r1, TtVec3 p2, TtVec3 q2, TtVec3 r2, TtVec3 normal) {
    TtVec3 n = abs(normal);
    uint axis = (n.x >= n.y && n.x >= n.z) ? 0u : (n.y >= n.z ? 1u : 2u);
    TtVec2 a0 = ttProject(p1, axis);
    TtVec2 a1 = ttProject(q1, axis);
    TtVec2 a2 = ttProject(r1, axis);
    TtVec2 b0 = ttProject(p2, axis);
    TtVec2 b1 = ttProject(q2, axis);
    TtVec2 b2 = ttProject(r2, axis);
    if (ttSegments(a0, a1, b0, b1) || ttSegments(a0, a1, b1, b2) || ttSegments(a0, a1, b2, b0) ||
        ttSegments(a1, a2, b0, b1) || ttSegments(a1, a2, b1, b2) || ttSegments(a1, a2, b2, b0) ||
        ttSegments(a2, a0, b0, b1) || ttSegments(a2, a0, b1, b2) || ttSegments(a2, a0, b2, b0)) {
        return true;
    }
    return ttPointInTriangle(a0, b0, b1, b2) || ttPointInTriangle(b0, a0, a1, a2);
}

// Guigue-Devillers' final step: with p1 alone on one side of plane 2 and p2 alone on one side of
// plane 1 (canonical order), the segments where the triangles cut the common line overlap iff
// both orientation tests pass.
VKC_INLINE bool ttCheckMinMax(TtVec3 p1, TtVec3 q1, TtVec3 r1, TtVec3 p2, TtVec3 q2, TtVec3 r2) {
    if (ttTriple(q2 - q1, p2 - q1, p1 - q1) > 0.0f) return false;
    if (ttTriple(r2 - p1, p2 - p1, r1 - p1) > 0.0f) return false;
    return true;
}

// Canonical permutation of triangle 2 (p2 alone on its side of plane 1). 0/1: result, 2: coplanar.
VKC_INLINE int ttTriTri3d(TtVec3 p1, TtVec3 q1, TtVec3 r1, TtVec3 p2, TtVec3 q2, TtVec3 r2, TtReal dp2, TtReal dq2, TtReal dr2) {
    if (dp2 > 0.0f) {
        if (dq2 > 0.0f) return ttCheckMinMax(p1, r1, q1, r2, p2, q2) ? 1 : 0;
        if (dr2 > 0.0f) return ttCheckMinMax(p1, r1, q1, q2, r2, p2) ? 1 : 0;
        return ttCheckMinMax(p1, q1, r1, p2, q2, r2) ? 1 : 0;
    }
    if (dp2 < 0.0f) {
        if (dq2 < 0.0f) return ttCheckMinMax(p1, q1, r1, r2, p2, q2) ? 1 : 0;
        if (dr2 < 0.0f) return ttCheckMinMax(p1, q1, r1, q2, r2, p2) ? 1 : 0;
        return ttCheckMinMax(p1, r1, q1, p2, q2, r2) ? 1 : 0;
    }
    if (dq2 < 0.0f) {
        if (dr2 >= 0.0f) return ttCheckMinMax(p1, r1, q1, q2, r2, p2) ? 1 : 0;
        return ttCheckMinMax(p1, q1, r1, p2, q2, r2) ? 1 : 0;
    }
    if (dq2 > 0.0f) {
        if (dr2 > 0.0f) return ttCheckMinMax(p1, r1, q1, p2, q2, r2) ? 1 : 0;
        return ttCheckMinMax(p1, q1, r1, q2, r2, p2) ? 1 : 0;
    }
    if (dr2 > 0.0f) return ttCheckMinMax(p1, q1, r1, r2, p2, q2) ? 1 : 0;
    if (dr2 < 0.0f) return ttCheckMinMax(p1, r1, q1, r2, p2, q2) ? 1 : 0;
    return 2;
}

// True when the closed triangles (p1, q1, r1) and (p2, q2, r2) share a point (policy above).
VKC_INLINE bool triTriIntersect(TtVec3 p1, TtVec3 q1, TtVec3 r1, TtVec3 p2, TtVec3 q2, TtVec3 r2) {
    TtPlane plane2 = ttPlane(p2 - r2, q2 - r2);
    TtPlane plane1 = ttPlane(q1 - p1, r1 - p1);
    if (ttDegenerate(plane1) || ttDegenerate(plane2)) return false;

    // Signs of triangle 1's vertices w.r.t. plane 2: all strictly on one side means no contact.
    TtReal dp1 = ttSide(plane2, p1 - r2);
    TtReal dq1 = ttSide(plane2, q1 - r2);
    TtReal dr1 = ttSide(plane2, r1 - r2);
    if ((dp1 > 0.0f && dq1 > 0.0f && dr1 > 0.0f) || (dp1 < 0.0f && dq1 < 0.0f && dr1 < 0.0f)) return false;

    TtReal dp2 = ttSide(plane1, p2 - r1);
    TtReal dq2 = ttSide(plane1, q2 - r1);
    TtReal dr2 = ttSide(plane1, r2 - r1);
    if ((dp2 > 0.0f && dq2 > 0.0f && dr2 > 0.0f) || (dp2 < 0.0f && dq2 < 0.0f && dr2 < 0.0f)) return false;

    // Canonical permutation of triangle 1 (p1 alone on its side of plane 2).
    int result = 2;
    if (dp1 > 0.0f) {
        if (dq1 > 0.0f) result = ttTriTri3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
        else if (dr1 > 0.0f) result = ttTriTri3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
        else result = ttTriTri3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    } else if (dp1 < 0.0f) {
        if (dq1 < 0.0f) result = ttTriTri3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
        else if (dr1 < 0.0f) result = ttTriTri3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
        else result = ttTriTri3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
    } else if (dq1 < 0.0f) {
        if (dr1 >= 0.0f) result = ttTriTri3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
        else result = ttTriTri3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    } else if (dq1 > 0.0f) {
        if (dr1 > 0.0f) result = ttTriTri3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
        else result = ttTriTri3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
    } else {
        if (dr1 > 0.0f) result = ttTriTri3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
        else if (dr1 < 0.0f) result = ttTriTri3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
    }
    if (result == 2) return ttCoplanar(p1, q1, r1, p2, q2, r2, plane1.normal);
    return result == 1;
}

VKC_NAMESPACE_END

#endif
