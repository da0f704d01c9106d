// Ray casting of method `ebpi` (paper 5, pipeline stage 5): layouts, limits and the one watertight
// ray-triangle test, written once in the common subset of GLSL and C++/GLM (ebpi_trace_*.comp and
// the CPU tests compile this same text). Every backend (compute, ray query) decides a hit with
// ebpiTraceTriangle, so they report bit-identical hits for the triangles they test.
// All structs are std430 of 4-byte scalars and 16-byte vectors (sizes static_assert'ed in
// passes/ebpi/ebpi_trace_passes.cpp).
#ifndef VKC_SHARED_EBPI_TRACE_H
#define VKC_SHARED_EBPI_TRACE_H

#include "glsl_cpp.h"
#include "vertex_fetch.h"  // ObjectGpu, the vertex-buffer array
#include "tri_tri.h"       // VKC_PRECISE / VKC_INLINE, TtReal (double) and the C++ math shims

VKC_NAMESPACE_BEGIN

// Threads per workgroup of the trace and sort passes (one thread per ray).
VKC_CONSTANT(uint, kEbpiTraceGroupSize, 64u)
// A ray's unused object slot.
VKC_CONSTANT(uint, kEbpiNoObject, 0xFFFFFFFFu)

// Descriptor bindings (set 0) of every backend's trace shaders and of ebpi_trace_sort.comp.
VKC_CONSTANT(uint, kEbpiTraceBindingObjects, 0u)  // EbpiTraceObjectGpu[], read
VKC_CONSTANT(uint, kEbpiTraceBindingIndices, 1u)  // uint[] triangle vertex indices, read
VKC_CONSTANT(uint, kEbpiTraceBindingRays, 2u)     // EbpiRayGpu[rayCount], read
VKC_CONSTANT(uint, kEbpiTraceBindingRayHits, 3u)  // EbpiRayHitsGpu[rayCount], counts
VKC_CONSTANT(uint, kEbpiTraceBindingHits, 4u)     // EbpiHitGpu[rayCount * hitCapacity]: ray r from r * hitCapacity
VKC_CONSTANT(uint, kEbpiTraceBindingTlas, 5u)     // accelerationStructureEXT (ray-query backend only)
VKC_CONSTANT(uint, kEbpiTraceBindingRayCount, 6u) // uint[]: the ray count when EbpiTracePush::countFromBuffer
// The word of that buffer holding the count: EbpiRayCountersGpu::writtenRays (shared/ebpi_rays.h),
// so a frame traces exactly the rays its ray generator wrote (GPU-driven, dispatched indirectly).
VKC_CONSTANT(uint, kEbpiRayCountWord, 4u)
VKC_CONSTANT(uint, kEbpiTraceBindingBoxes, 7u)    // EbpiTriangleBoxGpu[] (ray-query backend only): the BLAS input
// A triangle's box grows by this fraction of its object's coordinate scale (its vertices' magnitude,
// its extent and its placement's translation over its smallest scale): far more than the float
// rounding of the hardware's ray-box test and of the ray's move into object space, so the box
// always contains every point the exact test can accept (ebpi_trace_boxes.comp).
VKC_CONSTANT(float, kEbpiTraceBoxMargin, 1.0e-5)
// uint[4] (ray-tracing-pipeline backend only): the VkTraceRaysIndirectCommandKHR of a GPU-driven
// frame, written by ebpi_trace_launch.comp from the ray count.
VKC_CONSTANT(uint, kEbpiTraceBindingLaunch, 8u)
// Compute backend only: the AABB trees of the objects' meshes (shared/aabb_tree.h, as the
// aabb-tree method builds and refits them), which its rays traverse.
VKC_CONSTANT(uint, kEbpiTraceBindingTrees, 9u)   // AabbTreeGpu[], read
VKC_CONSTANT(uint, kEbpiTraceBindingNodes, 10u)  // AabbNodeGpu[], read
VKC_CONSTANT(uint, kEbpiTraceBindingLeaves, 11u) // uvec4[] per leaf: vertex ids, triangle, read
// Hardware backends: the TLAS's instances (EbpiAccelInstanceGpu), whose transforms the boxes pass
// writes from the object table, so that a pair placed on the GPU (ebpi_pair_setup.h) is traced where it is.
VKC_CONSTANT(uint, kEbpiTraceBindingInstances, 12u)
// A ray-tracing launch is kEbpiTraceLaunchWidth rays wide (or fewer) and as tall as the rays need:
// ray y * width + x, within every device's launch-size limits.
VKC_CONSTANT(uint, kEbpiTraceLaunchWidth, 4096u)

VKC_INLINE uint ebpiTraceLaunchWidth(uint rayCount) { return rayCount < kEbpiTraceLaunchWidth ? rayCount : kEbpiTraceLaunchWidth; }
VKC_INLINE uint ebpiTraceLaunchHeight(uint rayCount) { return (rayCount + kEbpiTraceLaunchWidth - 1u) / kEbpiTraceLaunchWidth; }

// One scene object as the casting sees it (std430, 96 bytes): where its triangles are.
struct EbpiTraceObjectGpu {
    ObjectGpu object;     // object -> frame-local transform and vertices
    uint firstIndex;      // the object's first triangle index in the index buffer
    uint triangleCount;
    uint firstBox;        // ray-query backend: its triangles' boxes (EbpiTriangleBoxGpu) from here
    uint tree;            // compute backend: its mesh's AABB tree (AabbTreeGpu) in the trees buffer
};

// A triangle's object-space box, grown (VkAabbPositionsKHR, 24 bytes): the BLAS holds boxes, not
// triangles, so the hardware proposes every triangle whose box the ray crosses and the exact test
// decides; a triangle BLAS's own float test can miss a triangle at an edge that the exact test
// accepts, leaving the ray with an odd hit count.
struct EbpiTriangleBoxGpu {
    float minX;
    float minY;
    float minZ;
    float maxX;
    float maxY;
    float maxZ;
};

// One ray (std430, 48 bytes): points origin + t direction, tMin <= t <= tMax, in the frame's
// local space; it meets only the triangles of its (at most two) objects.
struct EbpiRayGpu {
    vec4 origin;          // xyz; w = tMin
    vec4 direction;       // xyz, any non-zero length (t is in its units); w = tMax
    uint objectA;         // index into the object table, or kEbpiNoObject
    uint objectB;
    uint pad0;
    uint pad1;
};

// One hit (std430, 32 bytes). Barycentrics: the point is (1 - b1 - b2) v0 + b1 v1 + b2 v2.
struct EbpiHitGpu {
    float t;
    uint object;
    uint triangle;        // position in the object's index list / 3
    uint entering;        // 1: the ray enters the solid (direction . outward normal < 0), 0: leaves
    float b1;
    float b2;
    uint pad0;
    uint pad1;
};

// Per ray (std430, 8 bytes). `count` is exact; past hitCapacity the slots keep an arbitrary
// subset (append order) and `truncated` is 1, so the caller can grow the capacity and retry.
struct EbpiRayHitsGpu {
    uint count;
    uint truncated;
};

struct EbpiTracePush {
    uint rayCount;        // the rays; with countFromBuffer, the capacity of the ray buffers
    uint hitCapacity;     // slots per ray, >= 1
    uint countFromBuffer; // 1: trace min(rayCount, the count buffer's kEbpiRayCountWord)
    uint boxesPerObject;  // hardware backends: boxes each object's BLAS holds (0: its triangles); past
                          // its triangles they are far-away points, so a slot's BLAS fits any mesh
    uint firstRay;        // the chunk of rays this dispatch casts (ebpiChunkEnd); hit slots hold
    uint chunkRays;       // only the chunk's rays
};

// A frame's rays are cast and summed in chunks of chunkRays, one after the other, when their hit
// slots would pass one storage-buffer binding: ray r of a chunk starting at firstRay keeps its
// hits from slot (r - firstRay) x hitCapacity. Per-ray counts stay indexed by r. The chunk's end:
VKC_INLINE uint ebpiChunkEnd(uint rayCount, uint firstRay, uint chunkRays) {
    return rayCount - firstRay < chunkRays ? rayCount : firstRay + chunkRays;
}

// VkAccelerationStructureInstanceKHR as the boxes pass writes its transform (64 bytes).
struct EbpiAccelInstanceGpu {
    float transform[12];  // row-major 3 x 4
    uint customIndexAndMask;
    uint sbtOffsetAndFlags;
    uint referenceLow;
    uint referenceHigh;
};

// ---- The watertight test, shared verbatim by the shaders and the CPU (same text, same rounding:
// VKC_PRECISE forbids FMA contraction on the GPU; C++ in ISO mode does not contract either).
//
// Edge functions (Pluecker): for an edge p -> q and a ray o + t d, e = d . ((p - o) x (q - o)); the
// ray passes inside a triangle when its three edge functions have one sign. Watertight because a
// shared edge's function is computed once in a canonical vertex order (lexicographic by
// position) and negated for the other direction: its two triangles see exactly opposite values,
// whatever the rounding. Ties (e == 0: the ray meets the edge's line) are broken by simulation of
// simplicity: the origin moves by delta = eps x + eps^2 y + eps^3 z, which changes e by exactly
// delta . (d x (q - p)) (e is bilinear in the edge's points, and delta x delta = 0), so a zero
// edge takes the sign of the first non-zero component of d x (q - p). That is one consistent
// perturbation for all edges, so a ray through a shared edge or vertex meets exactly one triangle
// of a fan, and a ray grazing a silhouette edge meets both of its triangles or neither.
// Exactness: the rule is consistent for any rounding (the sign of a shared edge never differs
// between its triangles); the signs equal the exact geometric ones when the double products do
// not round near zero, which holds for coordinates with few significant bits (tests' exact edge
// and vertex rays) and for all but measure-zero rays otherwise.

struct EbpiEdgeSign {
    TtReal value;         // e for the edge in the direction asked
    int sign;             // sign of e, tie-broken; 0 only if the edge projects to a point (d || q - p)
};

VKC_INLINE bool ebpiVertexBefore(vec3 a, vec3 b) {
    return a.x < b.x || (a.x == b.x && (a.y < b.y || (a.y == b.y && a.z < b.z)));
}

VKC_INLINE int ebpiSignOf(TtReal x) {
    return x > 0.0 ? 1 : (x < 0.0 ? -1 : 0);
}

VKC_INLINE EbpiEdgeSign ebpiEdgeSign(vec3 origin, TtVec3 direction, vec3 p, vec3 q) {
    bool flip = ebpiVertexBefore(q, p);
    vec3 first = flip ? q : p;
    vec3 second = flip ? p : q;
    VKC_PRECISE TtVec3 u = TtVec3(first) - TtVec3(origin);
    VKC_PRECISE TtVec3 v = TtVec3(second) - TtVec3(origin);
    VKC_PRECISE TtReal cx = u.y * v.z - u.z * v.y;
    VKC_PRECISE TtReal cy = u.z * v.x - u.x * v.z;
    VKC_PRECISE TtReal cz = u.x * v.y - u.y * v.x;
    VKC_PRECISE TtReal e = (direction.x * cx + direction.y * cy) + direction.z * cz;
    int s = ebpiSignOf(e);
    if (s == 0) {
        VKC_PRECISE TtVec3 edge = TtVec3(second) - TtVec3(first);
        VKC_PRECISE TtReal tx = direction.y * edge.z - direction.z * edge.y;
        VKC_PRECISE TtReal ty = direction.z * edge.x - direction.x * edge.z;
        VKC_PRECISE TtReal tz = direction.x * edge.y - direction.y * edge.x;
        s = tx != 0.0 ? ebpiSignOf(tx) : (ty != 0.0 ? ebpiSignOf(ty) : ebpiSignOf(tz));
    }
    EbpiEdgeSign result;
    result.value = flip ? -e : e;
    result.sign = flip ? -s : s;
    return result;
}

struct EbpiTriangleHit {
    bool hit;             // inside (tie-broken) and tMin <= t <= tMax
    bool entering;
    float t;
    float b1;
    float b2;
};

// The ray o + t d against triangle (a, b, c), counter-clockwise seen from outside its solid.
VKC_INLINE EbpiTriangleHit ebpiTraceTriangle(vec3 origin, vec3 direction, float tMin, float tMax, vec3 a, vec3 b,
                                             vec3 c) {
    EbpiTriangleHit result;
    result.hit = false;
    result.entering = false;
    result.t = 0.0f;
    result.b1 = 0.0f;
    result.b2 = 0.0f;
    TtVec3 d = TtVec3(direction);
    EbpiEdgeSign ab = ebpiEdgeSign(origin, d, a, b);
    EbpiEdgeSign bc = ebpiEdgeSign(origin, d, b, c);
    EbpiEdgeSign ca = ebpiEdgeSign(origin, d, c, a);
    if (ab.sign == 0 || ab.sign != bc.sign || bc.sign != ca.sign) return result;
    // The three values share the tie-broken sign (or are 0) and are not all 0 (then the ray lies
    // in the triangle's plane, where the three tie signs never agree): sum = d . (b - a) x (c - a).
    VKC_PRECISE TtReal sum = (ab.value + bc.value) + ca.value;
    VKC_PRECISE TtVec3 pa = TtVec3(a) - TtVec3(origin);
    VKC_PRECISE TtVec3 pb = TtVec3(b) - TtVec3(origin);
    VKC_PRECISE TtVec3 pc = TtVec3(c) - TtVec3(origin);
    // t = (n . (a - o)) / (n . d) with n = (b - a) x (c - a), i.e. det(pa, pb, pc) / sum.
    VKC_PRECISE TtReal det = (pa.x * (pb.y * pc.z - pb.z * pc.y) + pa.y * (pb.z * pc.x - pb.x * pc.z)) +
                             pa.z * (pb.x * pc.y - pb.y * pc.x);
    VKC_PRECISE TtReal t = det / sum;
    if (!(t >= TtReal(tMin) && t <= TtReal(tMax))) return result;
    result.hit = true;
    // Outward normal n (counter-clockwise from outside): entering when d . n = sum < 0.
    result.entering = ab.sign < 0;
    result.t = float(t);
    // Pluecker barycentrics: a vertex's weight is the function of the opposite edge.
    result.b1 = float(ca.value / sum);
    result.b2 = float(ab.value / sum);
    return result;
}

// Deterministic order of a ray's hits: t, then object, then triangle.
VKC_INLINE bool ebpiHitBefore(EbpiHitGpu x, EbpiHitGpu y) {
    if (x.t != y.t) return x.t < y.t;
    if (x.object != y.object) return x.object < y.object;
    return x.triangle < y.triangle;
}

VKC_NAMESPACE_END

#endif
