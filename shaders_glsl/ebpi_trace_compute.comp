// ebpi casting, `compute` backend (any Vulkan 1.2 device, no acceleration structures: the path
// RenderDoc captures). Reads: rays, object table, indices, vertices, and the AABB trees of the
// objects' meshes as the aabb-tree method builds and refits them (paper 4's trees, reused: the
// issue's "reuse the library's AABB trees"). Writes: every hit of each ray into its slots, counts,
// truncation (shared/ebpi_trace.h).
// Traversal: one thread per ray; per object the ray moves into the object's space (in double, the
// placement being a similarity) and descends the tree depth first, entering every node whose box,
// grown by the hardware backends' margin (kEbpiTraceBoxMargin), the ray meets; at a leaf its
// triangle goes to the one exact test. The grown boxes hold every point the exact test can
// accept, so the hits are those of testing every triangle, the reference's. Hits in append order:
// the sort pass (ebpi_trace_sort.comp) orders them.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "ebpi_trace_common.glsl"

layout(local_size_x = kEbpiTraceGroupSize) in;

layout(set = 0, binding = kEbpiTraceBindingTrees, std430) readonly buffer Trees { AabbTreeGpu trees[]; };
layout(set = 0, binding = kEbpiTraceBindingNodes, std430) readonly buffer Nodes { AabbNodeGpu nodes[]; };
layout(set = 0, binding = kEbpiTraceBindingLeaves, std430) readonly buffer Leaves { uvec4 leaves[]; };

// Whether the ray origin + t direction, t in [t0, t1], meets the box lo..hi grown by `grow`.
bool meetsBox(dvec3 origin, dvec3 direction, double t0, double t1, vec3 lo, vec3 hi, float grow) {
    double enter = t0, leave = t1;
    for (int k = 0; k < 3; ++k) {
        double l = double(lo[k] - grow), h = double(hi[k] + grow);
        if (direction[k] == 0.0LF) {
            if (origin[k] < l || origin[k] > h) return false;
            continue;
        }
        double a = (l - origin[k]) / direction[k], b = (h - origin[k]) / direction[k];
        enter = max(enter, min(a, b));
        leave = min(leave, max(a, b));
    }
    return enter <= leave;
}

void traceObject(uint rayIndex, EbpiRayGpu ray, uint objectIndex) {
    EbpiTraceObjectGpu o = objects[objectIndex];
    AabbTreeGpu tree = trees[o.tree];
    // The placement p -> L p + t is a similarity (a rotation times a uniform scale s), so its
    // inverse is L^T (q - t) / s^2.
    mat4 m = o.object.objectToLocal;
    dmat3 linear = dmat3(dvec3(m[0].xyz), dvec3(m[1].xyz), dvec3(m[2].xyz));
    double scale2 = dot(linear[0], linear[0]);
    dmat3 inverse = transpose(linear) / scale2;
    dvec3 origin = inverse * (dvec3(ray.origin.xyz) - dvec3(m[3].xyz));
    dvec3 direction = inverse * dvec3(ray.direction.xyz);
    vec2 interval = ebpiTraceCandidateInterval(ray);
    // Depth first: the stack holds at most one pending sibling per level.
    uint stackLevel[kAabbMaxLevels + 1u];
    uint stackIndex[kAabbMaxLevels + 1u];
    stackLevel[0] = 0u;
    stackIndex[0] = 0u;
    uint top = 1u;
    while (top > 0u) {
        --top;
        uint level = stackLevel[top], index = stackIndex[top];
        AabbNodeGpu node = nodes[tree.nodeOffset + tree.levelStart[level] + index];
        float grow = kEbpiTraceBoxMargin * ebpiTraceCoordinateScale(o, node.lo.xyz, node.hi.xyz);
        if (!meetsBox(origin, direction, double(interval.x), double(interval.y), node.lo.xyz, node.hi.xyz, grow))
            continue;
        if (level + 1u == tree.levelCount) {
            ebpiTraceRecord(rayIndex, ray, objectIndex, leaves[tree.leafOffset + index].w);
            continue;
        }
        // Children 2i and 2i + 1 of the next level, where it has them; 2i on top.
        uint below = tree.levelStart[level + 2u] - tree.levelStart[level + 1u];
        for (uint child = 2u * index + 2u; child > 2u * index; --child)
            if (child - 1u < below) {
                stackLevel[top] = level + 1u;
                stackIndex[top] = child - 1u;
                ++top;
            }
    }
}

void traceRay(uint rayIndex) {
    EbpiRayGpu ray = rays[rayIndex];
    for (uint k = 0u; k < 2u; ++k) {
        uint object = k == 0u ? ray.objectA : ray.objectB;
        if (object == kEbpiNoObject || (k == 1u && object == ray.objectA)) continue;
        traceObject(rayIndex, ray, object);
    }
}

// Grid stride: the dispatch is capped at the device's group-count limit.
void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint chunkEnd = ebpiTraceChunkEnd();
    for (uint rayIndex = push.firstRay + gl_GlobalInvocationID.x; rayIndex < chunkEnd; rayIndex += stride)
        traceRay(rayIndex);
}
