// Error bound of an LDI pair volume from the triangles as drawn: for meshes the host deforms in
// its own buffer (the CPU holds only their rest pose, so ldiVolumeErrorBound cannot see them), and
// for every pair when the host chose LdiErrorBound::DrawnTriangles (no bound computed in record()).
// The LDI volume is the midpoint rule over the VoI's pixels, with vertices snapped to 1/256 pixel:
// it can only be wrong within d = (1/2 + 2/256) pixel diagonals of the surface of A n B, a region
// inside the union of every nearby triangle grown by d, whose volume is at most the Steiner
// formula 2 d area + pi/2 d^2 perimeter + 4/3 pi d^3 per triangle. (Sound but loose: 5-76 times
// the CPU's bound over the same triangles on ../shared/scenes/regressions' pairs, a median 99% of
// the volume against 7%.) One workgroup per tile of a flagged pair; per-thread sums in double, then a fixed-order
// tree, so the result is the same on every run.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ldi_compute.glsl"
#include "vertex_fetch.glsl"

layout(local_size_x = kLdiVolumeGroupSize) in;

shared double partial[kLdiVolumeGroupSize];

const double kPi = 3.14159265358979323846lf;

void main() {
    uint tile = gl_WorkGroupID.x, thread = gl_LocalInvocationID.x;
    // Uniform per workgroup, before any barrier.
    if (tile >= 2u * push.pairCount || tiles[tile].boundFromDrawn == 0u) return;
    LdiTileGpu t = tiles[tile];
    double d = double(t.nearLo.w);
    double sum = 0.0lf;
    for (uint triangle = thread; triangle < t.indexCount / 3u; triangle += kLdiVolumeGroupSize) {
        dvec3 p[3];
        for (uint c = 0u; c < 3u; ++c) {
            vec3 position = fetchVertex(t.vertices, triangleIndices[t.firstIndex + 3u * triangle + c]);
            p[c] = dvec3(dmat4(t.objectToLocal) * dvec4(position, 1.0lf));
        }
        dvec3 lo = min(p[0], min(p[1], p[2])), hi = max(p[0], max(p[1], p[2]));
        if (any(lessThan(hi, dvec3(t.nearLo.xyz))) || any(greaterThan(lo, dvec3(t.nearHi.xyz)))) continue;
        double area = 0.5lf * length(cross(p[1] - p[0], p[2] - p[0]));
        double perimeter = length(p[1] - p[0]) + length(p[2] - p[1]) + length(p[0] - p[2]);
        sum += 2.0lf * d * area + 0.5lf * kPi * d * d * perimeter + 4.0lf / 3.0lf * kPi * d * d * d;
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
