// Method `ebpi` (paper 5, Sec. 4.4): a pair's three ray directions turned away from its meshes'
// faces, on the GPU (ebpi_normal_histogram.comp, ebpi_directions.comp) and in the CPU reference
// (collision/ebpi/ebpi_directions.cpp), which compile this same text so that both round alike.
//
// The area-weighted normal histogram (the Extended Gaussian Image) is a cube map of 6 x 8 x 8
// texels, each the sum of area x unit normal of the triangles whose normal points into it, summed
// in 64-bit fixed point (each triangle's vector rounded to a quantum of histogramScale^-1) so the
// sums do not depend on the order of the atomics. Eq. 12 sums (n_t . a_j)^4 over the texels t and
// the axes a_j; it is a quartic form in each axis, so the 15 fourth moments of the (normalised)
// texels give it and its gradient in a few dozen operations whatever the mesh (the paper evaluates
// it texel by texel). It is minimised by Fletcher-Reeves conjugate gradients over rotations, with
// small turns from a fixed set of axes to leave local minima, warm-started from the pair's last
// axes. Rotations are turned by unit quaternions (1, v) / |(1, v)|, rational in v: no trigonometry,
// which GLSL has only in single precision.
//
// Every operation is written out in a fixed order (VKC_PRECISE: no FMA contraction), so the GPU's
// axes equal the reference's bit for bit where double division and square root are correctly
// rounded (lavapipe's are). Constants are double(float-exact literal) or built from them: GLSL reads
// an unsuffixed literal as a float.
#ifndef VKC_SHARED_EBPI_DIRECTIONS_H
#define VKC_SHARED_EBPI_DIRECTIONS_H

#include "glsl_cpp.h"
#include "tri_tri.h"  // VKC_PRECISE, VKC_INLINE

#ifdef __cplusplus
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>
#include <cmath>
#define VKC_INOUT(type) type&
#else
#define VKC_INOUT(type) inout type
#endif

VKC_NAMESPACE_BEGIN
#ifdef __cplusplus
using dvec3 = glm::dvec3;
using dmat3 = glm::dmat3;
using std::floor;
using std::sqrt;
#endif

VKC_CONSTANT(uint, kEbpiHistogramFaceSize, 8u)
VKC_CONSTANT(uint, kEbpiHistogramTexels, 384u)  // 6 x 8 x 8
VKC_CONSTANT(uint, kEbpiHistogramWords, 2304u)  // per pair: texels x 3 components x 2 words (int64)
VKC_CONSTANT(uint, kEbpiDirectionsGroupSize, 64u)
// Optimiser limits (the CPU reference's EbpiDirectionOptions defaults).
VKC_CONSTANT(uint, kEbpiDirectionIterations, 64u)  // conjugate-gradient steps per descent
VKC_CONSTANT(uint, kEbpiDirectionRestarts, 8u)     // turns tried from the best rotation found

// Descriptor bindings (set 0) of both passes; the vertex buffers are kBindingVertexBuffers.
VKC_CONSTANT(uint, kEbpiDirectionBindingObjects, 0u)    // ObjectGpu[], read (the image passes' table)
VKC_CONSTANT(uint, kEbpiDirectionBindingIndices, 1u)    // uint[] triangle indices of every mesh, read
VKC_CONSTANT(uint, kEbpiDirectionBindingPairs, 2u)      // EbpiDirectionPairGpu[], read
VKC_CONSTANT(uint, kEbpiDirectionBindingHistogram, 3u)  // uint[kEbpiHistogramWords] per pair, atomics
VKC_CONSTANT(uint, kEbpiDirectionBindingViews, 4u)      // EbpiViewGpu[]: rotation and window written
VKC_CONSTANT(uint, kEbpiDirectionBindingAxes, 5u)       // double[9] per pair (columns), written
VKC_CONSTANT(uint, kEbpiDirectionBindingRayViews, 6u)   // EbpiRayViewGpu[]: depth range, levels, reserve written

// One tested pair (232 bytes). Boxes are in the pair's coordinates (relative to its origin).
struct EbpiDirectionPairGpu {
    double start[9];         // the axes to start from (columns: the last axes read back, or identity)
    double overlapLo[3];     // the overlap of the two objects' boxes: each view's window holds it
    double overlapHi[3];
    double unionLo[3];       // the box around both: each view's rays span its depth
    double unionHi[3];
    double histogramScale;   // quanta per unit of area, a power of two
    double fixedReserve;     // what the fixed-point sums may round by (EbpiRayViewGpu::reserved adds
                             // the view's float rounding to it)
    uint objectA;            // in the object table
    uint objectB;
    uint firstIndexA;        // of each mesh's triangles in the index buffer
    uint firstIndexB;
    uint trianglesA;
    uint trianglesB;
    uint firstView;          // its three views: firstView .. firstView + 2, one per axis
    uint optimize;           // 0: keep `start` (EbpiDirectionChoice::WorldAxes)
    uint resolution;         // EBPI pixels along a window's longer side
    uint hitCapacity;        // hits kept per ray (the float rounding's count)
    uint inUse;              // 0: an empty slot (ebpi_pair_setup.h): its views stay empty
    uint unused;
};

struct EbpiDirectionPush {
    uint pairCount;
    uint unused0;
    uint unused1;
    uint unused2;
};

// ---- Vector arithmetic in a fixed order.

VKC_INLINE double ebpiDot(dvec3 a, dvec3 b) {
    VKC_PRECISE double d = (a.x * b.x + a.y * b.y) + a.z * b.z;
    return d;
}

VKC_INLINE dvec3 ebpiCross(dvec3 a, dvec3 b) {
    VKC_PRECISE double x = a.y * b.z - a.z * b.y;
    VKC_PRECISE double y = a.z * b.x - a.x * b.z;
    VKC_PRECISE double z = a.x * b.y - a.y * b.x;
    return dvec3(x, y, z);
}

VKC_INLINE dvec3 ebpiScaled(dvec3 a, double s) {
    VKC_PRECISE double x = a.x * s;
    VKC_PRECISE double y = a.y * s;
    VKC_PRECISE double z = a.z * s;
    return dvec3(x, y, z);
}

VKC_INLINE dvec3 ebpiAdd(dvec3 a, dvec3 b) {
    VKC_PRECISE double x = a.x + b.x;
    VKC_PRECISE double y = a.y + b.y;
    VKC_PRECISE double z = a.z + b.z;
    return dvec3(x, y, z);
}

VKC_INLINE dvec3 ebpiNormalized(dvec3 a) {
    VKC_PRECISE double length = sqrt(ebpiDot(a, a));
    VKC_PRECISE double x = a.x / length;
    VKC_PRECISE double y = a.y / length;
    VKC_PRECISE double z = a.z / length;
    return dvec3(x, y, z);
}

// m x v, m by columns.
VKC_INLINE dvec3 ebpiTimes(dmat3 m, dvec3 v) {
    return ebpiAdd(ebpiAdd(ebpiScaled(m[0], v.x), ebpiScaled(m[1], v.y)), ebpiScaled(m[2], v.z));
}

// a x b, by columns.
VKC_INLINE dmat3 ebpiTimesMatrix(dmat3 a, dmat3 b) {
    return dmat3(ebpiTimes(a, b[0]), ebpiTimes(a, b[1]), ebpiTimes(a, b[2]));
}

// The rotation taking `direction` (any length > 0) to +z: rows u, v, d with u x v = d (orientation
// kept). Any axis not parallel to d gives the image plane.
VKC_INLINE void ebpiRotationRows(dvec3 direction, VKC_INOUT(dvec3) u, VKC_INOUT(dvec3) v, VKC_INOUT(dvec3) d) {
    d = ebpiNormalized(direction);
    dvec3 helper = abs(d.x) < double(9.0) / double(10.0) ? dvec3(1.0, 0.0, 0.0) : dvec3(0.0, 1.0, 0.0);
    u = ebpiNormalized(ebpiCross(helper, d));
    v = ebpiCross(d, u);
}

// ---- The histogram.

// The texel of direction `n` (any length > 0): its cube face's major axis (+x, -x, +y, -y, +z, -z),
// then the two others' cells, 8 x 8 a face.
VKC_INLINE uint ebpiNormalTexel(dvec3 n) {
    dvec3 a = dvec3(abs(n.x), abs(n.y), abs(n.z));
    uint major = a.x >= a.y && a.x >= a.z ? 0u : (a.y >= a.z ? 1u : 2u);
    double along = major == 0u ? n.x : (major == 1u ? n.y : n.z);
    double first = major == 0u ? n.y : (major == 1u ? n.z : n.x);   // the next axis
    double second = major == 0u ? n.z : (major == 1u ? n.x : n.y);  // and the one after
    double size = abs(along);
    VKC_PRECISE double column = ((first / size + 1.0) / 2.0) * double(kEbpiHistogramFaceSize);
    VKC_PRECISE double row = ((second / size + 1.0) / 2.0) * double(kEbpiHistogramFaceSize);
    uint face = 2u * major + (along < 0.0 ? 1u : 0u);
    uint c = min(uint(column), kEbpiHistogramFaceSize - 1u);
    uint r = min(uint(row), kEbpiHistogramFaceSize - 1u);
    return (face * kEbpiHistogramFaceSize + r) * kEbpiHistogramFaceSize + c;
}

// A triangle's area x unit normal: half the cross product of its edges from the first vertex.
VKC_INLINE dvec3 ebpiAreaNormal(dvec3 p0, dvec3 p1, dvec3 p2) {
    VKC_PRECISE dvec3 e1 = dvec3(p1.x - p0.x, p1.y - p0.y, p1.z - p0.z);
    VKC_PRECISE dvec3 e2 = dvec3(p2.x - p0.x, p2.y - p0.y, p2.z - p0.z);
    return ebpiScaled(ebpiCross(e1, e2), 0.5);
}

// A component in quanta, rounded to the nearest (halves away from zero); |value| must stay far
// below 2^52 (the caller's scale sees to it).
VKC_INLINE double ebpiHistogramQuanta(double value, double scale) {
    VKC_PRECISE double scaled = value * scale;
    VKC_PRECISE double rounded = floor(abs(scaled) + 0.5);
    return scaled < 0.0 ? -rounded : rounded;
}

// ---- Eq. 12 as a quartic form.

// The 15 fourth moments sum n_a n_b n_c n_d over texels n, one per multiset {a, b, c, d} of axes in
// the order xxxx, xxxy, xxxz, xxyy, xxyz, xxzz, xyyy, xyyz, xyzz, xzzz, yyyy, yyyz, yyzz, yzzz, zzzz.
struct EbpiMoments {
    double m[15];
};

VKC_INLINE void ebpiAddMoments(VKC_INOUT(EbpiMoments) moments, dvec3 n) {
    VKC_PRECISE double xx = n.x * n.x;
    VKC_PRECISE double yy = n.y * n.y;
    VKC_PRECISE double zz = n.z * n.z;
    VKC_PRECISE double xy = n.x * n.y;
    VKC_PRECISE double xz = n.x * n.z;
    VKC_PRECISE double yz = n.y * n.z;
    VKC_PRECISE double m0 = moments.m[0] + xx * xx;
    VKC_PRECISE double m1 = moments.m[1] + xx * xy;
    VKC_PRECISE double m2 = moments.m[2] + xx * xz;
    VKC_PRECISE double m3 = moments.m[3] + xx * yy;
    VKC_PRECISE double m4 = moments.m[4] + xx * yz;
    VKC_PRECISE double m5 = moments.m[5] + xx * zz;
    VKC_PRECISE double m6 = moments.m[6] + xy * yy;
    VKC_PRECISE double m7 = moments.m[7] + xy * yz;
    VKC_PRECISE double m8 = moments.m[8] + xy * zz;
    VKC_PRECISE double m9 = moments.m[9] + xz * zz;
    VKC_PRECISE double m10 = moments.m[10] + yy * yy;
    VKC_PRECISE double m11 = moments.m[11] + yy * yz;
    VKC_PRECISE double m12 = moments.m[12] + yy * zz;
    VKC_PRECISE double m13 = moments.m[13] + yz * zz;
    VKC_PRECISE double m14 = moments.m[14] + zz * zz;
    moments.m[0] = m0;
    moments.m[1] = m1;
    moments.m[2] = m2;
    moments.m[3] = m3;
    moments.m[4] = m4;
    moments.m[5] = m5;
    moments.m[6] = m6;
    moments.m[7] = m7;
    moments.m[8] = m8;
    moments.m[9] = m9;
    moments.m[10] = m10;
    moments.m[11] = m11;
    moments.m[12] = m12;
    moments.m[13] = m13;
    moments.m[14] = m14;
}

// sum over texels of (n . a)^4.
VKC_INLINE double ebpiQuartic(EbpiMoments M, dvec3 a) {
    double x = a.x, y = a.y, z = a.z;
    VKC_PRECISE double xx = x * x;
    VKC_PRECISE double yy = y * y;
    VKC_PRECISE double zz = z * z;
    VKC_PRECISE double q = ((((M.m[0] * (xx * xx) + 4.0 * M.m[1] * (xx * (x * y))) + 4.0 * M.m[2] * (xx * (x * z))) +
                             (6.0 * M.m[3] * (xx * yy) + 12.0 * M.m[4] * (xx * (y * z)))) +
                            ((6.0 * M.m[5] * (xx * zz) + 4.0 * M.m[6] * ((x * y) * yy)) +
                             (12.0 * M.m[7] * ((x * y) * (y * z)) + 12.0 * M.m[8] * ((x * y) * zz)))) +
                           (((4.0 * M.m[9] * ((x * z) * zz) + M.m[10] * (yy * yy)) +
                             (4.0 * M.m[11] * (yy * (y * z)) + 6.0 * M.m[12] * (yy * zz))) +
                            (4.0 * M.m[13] * ((y * z) * zz) + M.m[14] * (zz * zz)));
    return q;
}

// The gradient of ebpiQuartic in a.
VKC_INLINE dvec3 ebpiQuarticGradient(EbpiMoments M, dvec3 a) {
    double x = a.x, y = a.y, z = a.z;
    VKC_PRECISE double xx = x * x;
    VKC_PRECISE double yy = y * y;
    VKC_PRECISE double zz = z * z;
    VKC_PRECISE double xy = x * y;
    VKC_PRECISE double gx = ((4.0 * M.m[0] * (xx * x) + 12.0 * M.m[1] * (xx * y)) + (12.0 * M.m[2] * (xx * z) + 12.0 * M.m[3] * (x * yy))) +
                            ((24.0 * M.m[4] * (xy * z) + 12.0 * M.m[5] * (x * zz)) + (4.0 * M.m[6] * (yy * y) + 12.0 * M.m[7] * (yy * z))) +
                            (12.0 * M.m[8] * (y * zz) + 4.0 * M.m[9] * (zz * z));
    VKC_PRECISE double gy = ((4.0 * M.m[1] * (xx * x) + 12.0 * M.m[3] * (xx * y)) + (12.0 * M.m[4] * (xx * z) + 12.0 * M.m[6] * (x * yy))) +
                            ((24.0 * M.m[7] * (xy * z) + 12.0 * M.m[8] * (x * zz)) + (4.0 * M.m[10] * (yy * y) + 12.0 * M.m[11] * (yy * z))) +
                            (12.0 * M.m[12] * (y * zz) + 4.0 * M.m[13] * (zz * z));
    VKC_PRECISE double gz = ((4.0 * M.m[2] * (xx * x) + 12.0 * M.m[4] * (xx * y)) + (12.0 * M.m[5] * (xx * z) + 12.0 * M.m[7] * (x * yy))) +
                            ((24.0 * M.m[8] * (xy * z) + 12.0 * M.m[9] * (x * zz)) + (4.0 * M.m[11] * (yy * y) + 12.0 * M.m[12] * (yy * z))) +
                            (12.0 * M.m[13] * (y * zz) + 4.0 * M.m[14] * (zz * z));
    return dvec3(gx, gy, gz);
}

// Eq. 12 for the axes' columns, and its gradient with respect to a turn axes -> (I + [w]x) axes:
// sum over axes a of a x grad q(a).
VKC_INLINE double ebpiAxesCost(EbpiMoments M, dmat3 axes) {
    VKC_PRECISE double cost = (ebpiQuartic(M, axes[0]) + ebpiQuartic(M, axes[1])) + ebpiQuartic(M, axes[2]);
    return cost;
}

VKC_INLINE dvec3 ebpiAxesCostGradient(EbpiMoments M, dmat3 axes) {
    return ebpiAdd(ebpiAdd(ebpiCross(axes[0], ebpiQuarticGradient(M, axes[0])),
                           ebpiCross(axes[1], ebpiQuarticGradient(M, axes[1]))),
                   ebpiCross(axes[2], ebpiQuarticGradient(M, axes[2])));
}

// ---- Rotations without trigonometry.

// The rotation of the unit quaternion (1, v) / |(1, v)|: by 2 atan |v| about v, I + 2 [v]x to first
// order (so v = w / 2 turns by about w).
VKC_INLINE dmat3 ebpiQuaternionTurn(dvec3 v) {
    VKC_PRECISE double vv = ebpiDot(v, v);
    VKC_PRECISE double s = 1.0 / (1.0 + vv);
    VKC_PRECISE double diagonal = 1.0 - vv;
    VKC_PRECISE double xx = (diagonal + 2.0 * (v.x * v.x)) * s;
    VKC_PRECISE double yy = (diagonal + 2.0 * (v.y * v.y)) * s;
    VKC_PRECISE double zz = (diagonal + 2.0 * (v.z * v.z)) * s;
    VKC_PRECISE double xyP = (2.0 * (v.x * v.y) + 2.0 * v.z) * s;
    VKC_PRECISE double xyM = (2.0 * (v.x * v.y) - 2.0 * v.z) * s;
    VKC_PRECISE double xzP = (2.0 * (v.x * v.z) + 2.0 * v.y) * s;
    VKC_PRECISE double xzM = (2.0 * (v.x * v.z) - 2.0 * v.y) * s;
    VKC_PRECISE double yzP = (2.0 * (v.y * v.z) + 2.0 * v.x) * s;
    VKC_PRECISE double yzM = (2.0 * (v.y * v.z) - 2.0 * v.x) * s;
    // Columns: R e_x = (xx, xy + z, xz - y), R e_y = (xy - z, yy, yz + x), R e_z = (xz + y, yz - x, zz).
    return dmat3(dvec3(xx, xyP, xzM), dvec3(xyM, yy, yzP), dvec3(xzP, yzM, zz));
}

// Columns made orthonormal again (Gram-Schmidt, keeping the first column's direction), right-handed.
VKC_INLINE dmat3 ebpiOrthonormal(dmat3 m) {
    dvec3 a = ebpiNormalized(m[0]);
    dvec3 b = ebpiNormalized(ebpiAdd(m[1], ebpiScaled(a, -ebpiDot(m[1], a))));
    return dmat3(a, b, ebpiCross(a, b));
}

// axes turned by t along direction d (the turn ebpiQuaternionTurn(t d / 2)).
VKC_INLINE dmat3 ebpiTurnedAxes(dmat3 axes, dvec3 d, double t) {
    return ebpiTimesMatrix(ebpiQuaternionTurn(ebpiScaled(d, t / 2.0)), axes);
}

// The cost along t -> axes turned by t d is smallest near one of 16 samples up to a 45 degree turn
// (Eq. 12 has period 90 degrees about any axis that is a symmetry); golden-section search around
// the best sample refines it. Returns the best t found, 0 when no sample improves on t = 0.
VKC_INLINE double ebpiLineSearch(EbpiMoments M, dmat3 axes, dvec3 d) {
    // A 45 degree turn: 2 atan(T |d| / 2) = pi / 4, T |d| / 2 = tan(pi / 8) = sqrt 2 - 1.
    VKC_PRECISE double step = (2.0 * (sqrt(double(2.0)) - 1.0) / sqrt(ebpiDot(d, d))) / 16.0;
    uint best = 0u;
    double bestCost = ebpiAxesCost(M, axes);
    for (uint k = 1u; k <= 16u; ++k) {
        double c = ebpiAxesCost(M, ebpiTurnedAxes(axes, d, double(k) * step));
        if (c < bestCost) {
            best = k;
            bestCost = c;
        }
    }
    VKC_PRECISE double ratio = (sqrt(double(5.0)) - 1.0) / 2.0;
    VKC_PRECISE double lo = double(best > 0u ? best - 1u : 0u) * step;
    VKC_PRECISE double hi = double(best + 1u) * step;
    VKC_PRECISE double x1 = hi - ratio * (hi - lo);
    VKC_PRECISE double x2 = lo + ratio * (hi - lo);
    double c1 = ebpiAxesCost(M, ebpiTurnedAxes(axes, d, x1));
    double c2 = ebpiAxesCost(M, ebpiTurnedAxes(axes, d, x2));
    for (uint i = 0u; i < 32u; ++i) {
        if (c1 < c2) {
            hi = x2;
            x2 = x1;
            c2 = c1;
            x1 = hi - ratio * (hi - lo);
            c1 = ebpiAxesCost(M, ebpiTurnedAxes(axes, d, x1));
        } else {
            lo = x1;
            x1 = x2;
            c1 = c2;
            x2 = lo + ratio * (hi - lo);
            c2 = ebpiAxesCost(M, ebpiTurnedAxes(axes, d, x2));
        }
    }
    if (min(c1, c2) < bestCost) return c1 < c2 ? x1 : x2;
    return double(best) * step;
}

// Fletcher-Reeves conjugate gradients from `axes`, restarted along the gradient every 3 steps
// (the dimension); each step's cost is at most the last one's.
VKC_INLINE dmat3 ebpiDescend(EbpiMoments M, dmat3 axes) {
    dvec3 gradient = ebpiAxesCostGradient(M, axes);
    dvec3 direction = ebpiScaled(gradient, -1.0);
    for (uint i = 0u; i < kEbpiDirectionIterations && ebpiDot(gradient, gradient) > 0.0; ++i) {
        double t = ebpiLineSearch(M, axes, direction);
        if (t == 0.0) {
            if (i % 3u == 0u) break;  // not even the steepest descent improves: a local minimum
            direction = ebpiScaled(gradient, -1.0);  // the conjugate direction went stale
            continue;
        }
        axes = ebpiOrthonormal(ebpiTurnedAxes(axes, direction, t));
        dvec3 next = ebpiAxesCostGradient(M, axes);
        VKC_PRECISE double beta = (i + 1u) % 3u == 0u ? 0.0 : ebpiDot(next, next) / ebpiDot(gradient, gradient);
        direction = ebpiAdd(ebpiScaled(next, -1.0), ebpiScaled(direction, beta));
        gradient = next;
    }
    return axes;
}

// Restart axis r: fixed, spread over the sphere, the same everywhere.
VKC_INLINE dvec3 ebpiRestartAxis(uint r) {
    dvec3 axis = dvec3(3.0, 1.0, -2.0);
    if (r == 1u) axis = dvec3(-1.0, 4.0, 2.0);
    if (r == 2u) axis = dvec3(2.0, -3.0, 1.0);
    if (r == 3u) axis = dvec3(1.0, 2.0, 5.0);
    if (r == 4u) axis = dvec3(-4.0, -1.0, 3.0);
    if (r == 5u) axis = dvec3(5.0, -2.0, -1.0);
    if (r == 6u) axis = dvec3(-2.0, -5.0, -1.0);
    if (r == 7u) axis = dvec3(1.0, -1.0, -4.0);
    return ebpiNormalized(axis);
}

// The axes at a local minimum of Eq. 12 reached from `start` (orthonormal columns), never costlier
// than it: a descent from start, then from small turns (about 0.3 radians, Sec. 4.4's "small
// random steps") of the best axes so far about each restart axis.
VKC_INLINE dmat3 ebpiMinimizeAxes(EbpiMoments M, dmat3 start, uint restarts) {
    dmat3 best = ebpiDescend(M, ebpiOrthonormal(start));
    double bestCost = ebpiAxesCost(M, best);
    for (uint r = 0u; r < restarts; ++r) {
        dvec3 v = ebpiScaled(ebpiRestartAxis(r), double(3.0) / double(20.0));  // tan(angle / 2) ~ 0.15
        dmat3 tried = ebpiDescend(M, ebpiOrthonormal(ebpiTimesMatrix(ebpiQuaternionTurn(v), best)));
        double cost = ebpiAxesCost(M, tried);
        if (cost < bestCost) {
            best = tried;
            bestCost = cost;
        }
    }
    return best;
}

// ---- Off the faces.
//
// Eq. 12 is a quartic form, and over three orthonormal axes sum_j (n . a_j)^2 = |n|^2 for every n,
// so no quartic can tell a ray parallel to a face (n . a = 0) from one that merely leans on it:
// Eq. 12's minimum then puts an axis exactly in the plane of a face wherever the faces' areas
// differ (a 2 x 1 x 0.5 box: an axis in its small faces' plane; the game host's box
// colliders), where the bound's crease terms have no limit and a pair needs hundreds of thousands
// of rays for what a leaning axis meets with thousands. Sec. 4.4's aim, "sampling directions away
// from the surface normals", is kept by a last step: axes with a significant texel (at least
// 1/kEbpiLeanTexels of the histogram) within kEbpiMinimumLean of parallel to a ray are turned about
// one of their own axes by about 14 or 28 degrees, to the cheapest (Eq. 12) turn that leans every
// significant texel at least that much, or failing that the one that leans them most. Smooth
// meshes have no significant texel and keep Eq. 12's axes.
VKC_CONSTANT(uint, kEbpiLeanTexels, 32u)
VKC_CONSTANT(double, kEbpiMinimumLean, double(0.125))  // |n . a| of a unit normal: about 7 degrees

struct EbpiLeanTexels {
    dvec3 n[32];  // unit normals of the significant texels
    uint count;
};

// Adds a normalised texel (its share of the histogram's summed lengths) when it is significant.
VKC_INLINE void ebpiAddLeanTexel(VKC_INOUT(EbpiLeanTexels) texels, dvec3 normalised) {
    VKC_PRECISE double length = sqrt(ebpiDot(normalised, normalised));
    VKC_PRECISE double share = length * double(kEbpiLeanTexels);
    if (share < 1.0 || texels.count >= kEbpiLeanTexels) return;
    texels.n[texels.count] = ebpiScaled(normalised, 1.0 / length);
    texels.count = texels.count + 1u;
}

// The smallest |n . a_j| over the significant texels and the axes (1 without any).
VKC_INLINE double ebpiSmallestLean(EbpiLeanTexels texels, dmat3 axes) {
    double smallest = 1.0;
    for (uint t = 0u; t < texels.count; ++t)
        for (uint j = 0u; j < 3u; ++j) smallest = min(smallest, abs(ebpiDot(texels.n[t], axes[j])));
    return smallest;
}

// `axes` (Eq. 12's minimum from `start`) as they are when every significant texel leans at least
// kEbpiMinimumLean on every axis, else the turn described above; `start` (as given: the last
// frame's axes, orthonormal) competes first when it leans enough, so a frame never costs more than its start
// did unless that start was too close to a face. A later candidate replaces an earlier one only
// when it is cheaper by more than rounding, so symmetric turns (equal costs) keep the first and a
// slowly turning mesh keeps its choice.
VKC_INLINE dmat3 ebpiLeanOffFaces(EbpiMoments M, EbpiLeanTexels texels, dmat3 axes, dmat3 start) {
    double bestLean = ebpiSmallestLean(texels, axes);
    if (bestLean >= kEbpiMinimumLean) return axes;
    dmat3 best = axes;
    double bestCost = 0.0;
    bool met = false;
    double startLean = ebpiSmallestLean(texels, start);
    if (startLean >= kEbpiMinimumLean) {
        best = start;
        bestLean = startLean;
        bestCost = ebpiAxesCost(M, start);
        met = true;
    }
    for (uint k = 0u; k < 12u; ++k) {
        // tan(angle / 2): 1/8 (about 14 degrees) then 1/4 (about 28), each way about each axis.
        double size = k < 6u ? double(0.125) : double(0.25);
        double sign = (k / 3u) % 2u == 0u ? 1.0 : -1.0;
        dmat3 tried = ebpiOrthonormal(ebpiTimesMatrix(ebpiQuaternionTurn(ebpiScaled(axes[k % 3u], sign * size)), axes));
        double lean = ebpiSmallestLean(texels, tried);
        double cost = ebpiAxesCost(M, tried);
        VKC_PRECISE double cheaper = cost * (1.0 + double(1.0 / 1048576.0));
        bool better = lean >= kEbpiMinimumLean ? (!met || cheaper < bestCost) : (!met && lean > bestLean);
        if (better) {
            best = tried;
            bestLean = lean;
            bestCost = cost;
            met = lean >= kEbpiMinimumLean;
        }
    }
    return best;
}

VKC_NAMESPACE_END

#ifdef __cplusplus
#include <cstddef>
static_assert(sizeof(vkc::gpu::EbpiDirectionPairGpu) == 232 && offsetof(vkc::gpu::EbpiDirectionPairGpu, objectA) == 184);
static_assert(vkc::gpu::kEbpiHistogramTexels == 6 * vkc::gpu::kEbpiHistogramFaceSize * vkc::gpu::kEbpiHistogramFaceSize);
static_assert(vkc::gpu::kEbpiHistogramWords == vkc::gpu::kEbpiHistogramTexels * 6);
static_assert(sizeof(vkc::gpu::EbpiDirectionPush) == 16);
#endif

#endif
