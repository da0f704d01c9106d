// Method `ebpi` (paper 5, Sec. 5), transient edges on the GPU: for every candidate triangle pair of
// the frame's aabb-tree traversal (leaf boxes that overlap, with the traversal's slack: a superset
// of the pairs that cross), the exact segment where the two triangles cross and its crease term in
// each of the pair's three views, added into their EBPIs. Repeats ebpiSurfaceCrossings and
// ebpiTransientEdgeTerms (collision/ebpi/ebpi_transient_edges.cpp) operation for operation: the
// vertices placed by ebpiLocalPoint, both boxes meeting the pair's region and each other, the
// segment, the widening, the bound, so the image equals the CPU reference's bit for bit.
// Grid: x = triangle pair (grid-stride up to the traversal's count, within the list's capacity).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/aabb_tree.h"
#include "ebpi_crease_bound.glsl"
#include "ebpi_ray_frame.glsl"
#include "ebpi_term_raster.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kEbpiImageGroupSize;

layout(set = 0, binding = kEbpiImageBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kEbpiImageBindingViews, std430) readonly buffer Views { EbpiViewGpu views[]; };
layout(set = 0, binding = kEbpiImageBindingIndices, std430) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = kEbpiImageBindingTrianglePairs, std430) readonly buffer TrianglePairs {
    AabbTrianglePairGpu trianglePairs[];
};
layout(set = 0, binding = kEbpiImageBindingTraversal, std430) readonly buffer Traversal { AabbTraversalStateGpu traversal; };
layout(set = 0, binding = kEbpiImageBindingCrossingPairs, std430) readonly buffer CrossingPairs {
    EbpiCrossingPairGpu crossingPairs[];
};

layout(push_constant) uniform Push { EbpiImagePush push; };

// glm's dot and cross, in their order, without contraction.
double dot3(dvec3 a, dvec3 b) {
    precise double d = (a.x * b.x + a.y * b.y) + a.z * b.z;
    return d;
}

dvec3 cross3(dvec3 x, dvec3 y) {
    precise dvec3 c = dvec3(x.y * y.z - y.y * x.z, x.z * y.x - y.z * x.x, x.x * y.y - y.x * x.y);
    return c;
}

struct Triangle {
    dvec3 v[3];
    dvec3 lo;
    dvec3 hi;
};

Triangle localTriangle(ObjectGpu object, uint firstIndex, uint triangle) {
    Triangle t;
    for (uint k = 0u; k < 3u; ++k)
        t.v[k] = ebpiLocalPoint(object.objectToLocal, fetchVertex(object.vertices, indices[firstIndex + 3u * triangle + k]));
    t.lo = min(t.v[0], min(t.v[1], t.v[2]));
    t.hi = max(t.v[0], max(t.v[1], t.v[2]));
    return t;
}

bool boxesMeet(dvec3 loA, dvec3 hiA, dvec3 loB, dvec3 hiB) {
    return all(lessThanEqual(loA, hiB)) && all(greaterThanEqual(hiA, loB));
}

// planeCrossing: the points where t's boundary meets the plane n . x = d (two for a crossing).
uint planeCrossing(Triangle t, dvec3 n, double d, out dvec3 out0, out dvec3 out1) {
    out0 = dvec3(0.0LF);
    out1 = dvec3(0.0LF);
    double s[3];
    for (uint k = 0u; k < 3u; ++k) {
        precise double side = dot3(n, t.v[k]) - d;
        s[k] = side;
    }
    if ((s[0] > 0.0LF && s[1] > 0.0LF && s[2] > 0.0LF) || (s[0] < 0.0LF && s[1] < 0.0LF && s[2] < 0.0LF)) return 0u;
    if (s[0] == 0.0LF && s[1] == 0.0LF && s[2] == 0.0LF) return 0u;  // coplanar: equal gradients, no crease
    uint count = 0u;
    for (uint k = 0u; k < 3u && count < 2u; ++k) {
        uint j = (k + 1u) % 3u;
        dvec3 point;
        if (s[k] == 0.0LF) {
            point = t.v[k];
        } else if ((s[k] < 0.0LF) != (s[j] < 0.0LF) && s[j] != 0.0LF) {
            precise double f = s[k] / (s[k] - s[j]);
            precise dvec3 p = t.v[k] + (t.v[j] - t.v[k]) * f;
            point = p;
        } else {
            continue;
        }
        if (count == 0u) out0 = point; else out1 = point;
        ++count;
    }
    return count;
}

dvec3 unitNormal(Triangle t) {
    dvec3 n = cross3(t.v[1] - t.v[0], t.v[2] - t.v[0]);
    precise double length = sqrt(dot3(n, n));
    if (!(length > 0.0LF)) return dvec3(0.0LF);
    precise dvec3 unit = n / length;
    return unit;
}

// crossingSegment: where triangles a and b meet, if it has a length.
bool crossingSegment(Triangle a, Triangle b, out dvec3 start, out dvec3 end, out dvec3 na, out dvec3 nb) {
    start = end = dvec3(0.0LF);
    na = unitNormal(a);
    nb = unitNormal(b);
    if (na == dvec3(0.0LF) || nb == dvec3(0.0LF)) return false;
    dvec3 onA0, onA1, onB0, onB1;
    if (planeCrossing(b, na, dot3(na, a.v[0]), onB0, onB1) != 2u) return false;  // b's chord on a's plane
    if (planeCrossing(a, nb, dot3(nb, b.v[0]), onA0, onA1) != 2u) return false;
    dvec3 line = cross3(na, nb);
    if (dot3(line, line) == 0.0LF) return false;
    if (dot3(line, onA0) > dot3(line, onA1)) { dvec3 swap = onA0; onA0 = onA1; onA1 = swap; }
    if (dot3(line, onB0) > dot3(line, onB1)) { dvec3 swap = onB0; onB0 = onB1; onB1 = swap; }
    start = dot3(line, onA0) > dot3(line, onB0) ? onA0 : onB0;
    end = dot3(line, onA1) < dot3(line, onB1) ? onA1 : onB1;
    return dot3(line, start) < dot3(line, end);
}

dvec3 toFrame(EbpiViewGpu view, dvec3 p) {
    return dvec3(dot3(dvec3(view.rotation[0], view.rotation[1], view.rotation[2]), p),
                 dot3(dvec3(view.rotation[3], view.rotation[4], view.rotation[5]), p),
                 dot3(dvec3(view.rotation[6], view.rotation[7], view.rotation[8]), p));
}

// ebpiTransientEdgeTerms for one crossing in one view; false for a steep face (its own wall terms
// cover the jump there).
bool transientTerm(EbpiViewGpu view, dvec3 p3, dvec3 q3, dvec3 normalA, dvec3 normalB, out EbpiEdgeTermGpu term) {
    double bound[5] = double[5](0.0LF, 0.0LF, 0.0LF, 0.0LF, 0.0LF);
    term = EbpiEdgeTermGpu(0.0LF, 0.0LF, 0.0LF, 0.0LF, bound);
    dvec3 na = toFrame(view, normalA);
    dvec3 nb = toFrame(view, normalB);
    if (na.z == 0.0LF || nb.z == 0.0LF) return false;
    precise dvec2 gradientA = dvec2(-na.x / na.z, -na.y / na.z);
    precise dvec2 gradientB = dvec2(-nb.x / nb.z, -nb.y / nb.z);
    // Widened by a rounding's worth so that the closed segment touches every pixel the exact one does.
    dvec2 p = toFrame(view, p3).xy;
    dvec2 q = toFrame(view, q3).xy;
    precise dvec2 widen = (q - p) * 1e-9LF + (sign(q - p) * 1e-12LF) * (abs(p) + abs(q));
    precise dvec2 a = p - widen;
    precise dvec2 b = q + widen;
    precise dvec2 jump = gradientA - gradientB;
    creaseBound(jump, bound);
    term = EbpiEdgeTermGpu(a.x, a.y, b.x, b.y, bound);
    return true;
}

void main() {
    uint count = min(traversal.trianglePairCount, push.trianglePairCapacity);
    uint stride = gl_NumWorkGroups.x * kGroupSize;
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
        AabbTrianglePairGpu candidate = trianglePairs[i];
        EbpiCrossingPairGpu pair = crossingPairs[candidate.pair];
        dvec3 regionLo = dvec3(pair.regionLo[0], pair.regionLo[1], pair.regionLo[2]);
        dvec3 regionHi = dvec3(pair.regionHi[0], pair.regionHi[1], pair.regionHi[2]);
        Triangle a = localTriangle(objects[pair.objectA], pair.firstIndexA, candidate.triangleA);
        if (!boxesMeet(a.lo, a.hi, regionLo, regionHi)) continue;
        Triangle b = localTriangle(objects[pair.objectB], pair.firstIndexB, candidate.triangleB);
        if (!boxesMeet(b.lo, b.hi, regionLo, regionHi) || !boxesMeet(a.lo, a.hi, b.lo, b.hi)) continue;
        dvec3 start, end, na, nb;
        if (!crossingSegment(a, b, start, end, na, nb)) continue;
        for (uint axis = 0u; axis < 3u; ++axis) {
            uint viewIndex = pair.firstView + axis;
            EbpiViewGpu view = views[viewIndex];
            EbpiEdgeTermGpu term;
            if (!transientTerm(view, start, end, na, nb, term)) continue;
            bool overflowed = false;
            ebpiRasterizeTerm(view, term, overflowed);
            if (overflowed) atomicOr(overflow[viewIndex], 1u);
        }
    }
}
