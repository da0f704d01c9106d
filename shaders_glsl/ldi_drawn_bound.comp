// Error bound of an LDI pair volume from the triangles as drawn: for meshes the host deforms in
// its own buffer (the CPU holds only their rest pose, so ldiVolumeErrorBound cannot see them), and
// for every pair when the host chose LdiErrorBound::DrawnTriangles (no bound computed in record()).
// The LDI volume is the midpoint rule over the VoI's pixels, with vertices snapped to 1/256 pixel:
// it can only be wrong within d = (1/2 + 2/256) pixel diagonals of the surface of A n B, so within
// the tube of radius d around each mesh's triangles near the VoI overlap. The tube's volume is
// bounded by where each of its points has its nearest surface point q (every triangle holding q
// is then near the overlap too, so it is counted):
// - inside a face: the point lies on the face's normal within d, a slab of 2 d x area;
// - inside an edge: its direction from q is normal to the edge and points away from both faces
//   (first-order: moving q into either face must not bring it nearer), an arc of pi - angle(a, b)
//   for the faces' directions a, b into themselves; a wedge of arc / 2 x length x d^2;
// - a vertex v: its direction u has u . (x - v) <= 0 for every x of v's triangles, the cone polar
//   to theirs, of solid angle 2 pi minus the perimeter of their directions' hull, at most 2 pi
//   minus twice the widest angle between any two of those directions; a cone of solid angle / 3 x d^3.
// Each edge's wedge comes half from each of its two triangles, each vertex's cone in shares from
// the triangles holding it (ldi_drawn_bound_topology.h). Unlike the sum of every triangle grown by
// d (its Steiner volume, which this bound replaced), this does not grow with the tessellation: the
// edge and vertex terms shrink as the surface gets smoother. An edge not in two triangles, or a
// degenerate face, gets the half cylinder of the Steiner volume from each triangle.
// One workgroup per tile of a flagged pair; per-thread sums in double, then a fixed-order tree, so
// the result is the same on every run.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"
#include "vertex_fetch.glsl"

layout(local_size_x = kLdiVolumeGroupSize) in;

layout(set = 0, binding = kLdiBindingVerticesAcross, std430) readonly buffer VerticesAcross { uint verticesAcross[]; };
layout(set = 0, binding = kLdiBindingCornerValences, std430) readonly buffer CornerValences { uint cornerValences[]; };

shared double partial[kLdiVolumeGroupSize];

const double kPi = 3.14159265358979323846lf;

dvec3 drawnVertex(LdiTileGpu t, uint vertex) {
    return dvec3(dmat4(t.objectToLocal) * dvec4(fetchVertex(t.vertices, vertex), 1.0lf));
}

// Whether u is too short for its direction to be trusted (a repeated or coincident vertex).
bool degenerate(dvec3 u, double reach) { return dot(u, u) <= 1e-18lf * reach * reach; }

// The angle between u and v, neither degenerate, rounded down (float's, less
// kLdiDrawnBoundAngleMargin). Both parts are scaled to at most 1 before they become floats.
double angleAtMost(dvec3 u, dvec3 v) {
    double sine = length(cross(u, v)), cosine = dot(u, v);
    double scale = max(sine, abs(cosine));
    float angle = atan(float(sine / scale), float(cosine / scale));
    return max(0.0lf, double(angle) - double(kLdiDrawnBoundAngleMargin));
}

// A triangle's share of the wedge of its side p -> p + e, whose face goes on to `own` and whose
// edge's other face to `across` (acrossKnown).
double sideShare(dvec3 p, dvec3 e, double sideLength, dvec3 own, dvec3 across, bool acrossKnown, double d) {
    if (sideLength == 0.0lf) return 0.0lf;
    double halfCylinder = 0.5lf * kPi * sideLength * d * d;
    if (!acrossKnown) return halfCylinder;
    dvec3 toOwn = own - p, toAcross = across - p;
    dvec3 a = toOwn - e * (dot(toOwn, e) / (sideLength * sideLength));
    dvec3 b = toAcross - e * (dot(toAcross, e) / (sideLength * sideLength));
    double reach = sqrt(max(dot(toOwn, toOwn), dot(toAcross, toAcross)));
    if (degenerate(a, reach) || degenerate(b, reach)) return halfCylinder;
    double arc = kPi - angleAtMost(a, b);
    return 0.25lf * arc * sideLength * d * d;  // half of arc / 2 x length x d^2
}

// A triangle's share of the cone of its corner, from the directions it knows of the corner's
// triangles (`known` of `directions`, of lengths `lengths`): its two sides and the vertices across
// them. The widest pair is the one of least cosine; any pair's angle gives a sound bound.
double cornerShare(dvec3 directions[4], double lengths[4], bool known[4], uint valence, double d) {
    double reach = max(max(lengths[0], lengths[1]), max(known[2] ? lengths[2] : 0.0lf, known[3] ? lengths[3] : 0.0lf));
    bool usable[4];
    uint usableCount = 0u;
    for (uint i = 0u; i < 4u; ++i) {
        usable[i] = known[i] && !degenerate(directions[i], reach);
        usableCount += usable[i] ? 1u : 0u;
    }
    double solidAngle = usableCount == 1u ? 2.0lf * kPi : 4.0lf * kPi;
    if (usableCount >= 2u) {
        uint first = 0u, second = 0u;
        double leastCosine = 2.0lf;
        for (uint i = 0u; i < 4u; ++i)
            for (uint j = i + 1u; j < 4u; ++j) {
                if (!usable[i] || !usable[j]) continue;
                double cosine = dot(directions[i], directions[j]) / (lengths[i] * lengths[j]);
                if (cosine < leastCosine) {
                    leastCosine = cosine;
                    first = i;
                    second = j;
                }
            }
        solidAngle = max(0.0lf, 2.0lf * kPi - 2.0lf * angleAtMost(directions[first], directions[second]));
    }
    return solidAngle / 3.0lf * d * d * d / double(max(valence, 1u));
}

uint cornerValence(uint index) { return (cornerValences[index >> 2] >> ((index & 3u) * 8u)) & 0xffu; }

void main() {
    uint tile = gl_WorkGroupID.x, thread = gl_LocalInvocationID.x;
    // Uniform per workgroup, before any barrier.
    if (tile >= 2u * push.pairCount || tiles[tile].boundFromDrawn == 0u) return;
    LdiTileGpu t = tiles[tile];
    double d = double(t.nearLo.w);
    double sum = 0.0lf;
    for (uint triangle = thread; triangle < t.indexCount / 3u; triangle += kLdiVolumeGroupSize) {
        uint first = t.firstIndex + 3u * triangle;
        dvec3 p[3];
        for (uint c = 0u; c < 3u; ++c) p[c] = drawnVertex(t, triangleIndices[first + c]);
        dvec3 lo = min(p[0], min(p[1], p[2])), hi = max(p[0], max(p[1], p[2]));
        if (any(lessThan(hi, dvec3(t.nearLo.xyz))) || any(greaterThan(lo, dvec3(t.nearHi.xyz)))) continue;
        // Side k runs from corner k to corner k + 1; across[k] is the other face's third vertex.
        dvec3 across[3];
        bool acrossKnown[3];
        for (uint k = 0u; k < 3u; ++k) {
            uint vertex = verticesAcross[first + k];
            acrossKnown[k] = vertex != kLdiNoVertexAcross;
            across[k] = acrossKnown[k] ? drawnVertex(t, vertex) : p[k];
        }
        sum += d * length(cross(p[1] - p[0], p[2] - p[0]));  // 2 d x area
        dvec3 side[3];
        double sideLength[3];
        for (uint k = 0u; k < 3u; ++k) {
            side[k] = p[(k + 1u) % 3u] - p[k];
            sideLength[k] = length(side[k]);
        }
        for (uint k = 0u; k < 3u; ++k) {
            uint previous = (k + 2u) % 3u;
            sum += sideShare(p[k], side[k], sideLength[k], p[previous], across[k], acrossKnown[k], d);
            dvec3 directions[4] = dvec3[4](side[k], -side[previous], across[k] - p[k], across[previous] - p[k]);
            double lengths[4] = double[4](sideLength[k], sideLength[previous], length(directions[2]), length(directions[3]));
            bool known[4] = bool[4](true, true, acrossKnown[k], acrossKnown[previous]);
            sum += cornerShare(directions, lengths, known, cornerValence(first + k), d);
        }
    }
    partial[thread] = sum;
    barrier();
    for (uint width = kLdiVolumeGroupSize / 2u; width > 0u; width /= 2u) {
        if (thread < width) partial[thread] += partial[thread + width];
        barrier();
    }
    if (thread != 0u) return;
    if ((tile & 1u) == 0u)
        pairResults[tile >> 1].drawnBoundA = partial[0];
    else
        pairResults[tile >> 1].drawnBoundB = partial[0];
}
