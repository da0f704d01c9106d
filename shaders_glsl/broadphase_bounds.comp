// World AABB of every object from its transformed vertices (meshes may deform every frame). Each
// thread takes one chunk: at most kBoundsChunkVertices consecutive vertices of one object (every
// object has at least one chunk), so the threads follow the scene's vertices whatever the mix of
// mesh sizes. When every object is one chunk, chunk i is object i and its thread writes the box;
// otherwise the thread finds its object in the chunk starts by binary search, and a subgroup whose
// chunks are all one object's reduces them first, so one atomic per subgroup reaches memory.
// (One 256-thread workgroup per object had left a box's 8 vertices 248 idle threads: 21 ms of a
// 33 ms frame of 10,000 shared-mesh solids on lavapipe.)
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require

#include "shared/broadphase.h"
#include "shared/float_order.h"
#include "vertex_fetch.glsl"

layout(local_size_x = kBoundsGroupSize) in;

layout(set = 0, binding = kBindingObjects, std430) readonly buffer Objects { ObjectGpu objects[]; };
layout(set = 0, binding = kBindingBounds, std430) buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kBindingChunkStarts, std430) readonly buffer ChunkStarts { uint chunkStarts[]; };

layout(push_constant) uniform Push { BroadphasePush push; };

// The object whose chunks include `chunk`: the last with chunkStarts[object] <= chunk.
uint objectOfChunk(uint chunk) {
    uint lo = 0u, hi = push.objectCount;  // chunkStarts[lo] <= chunk, and the answer is below hi
    while (hi - lo > 1u) {
        uint mid = (lo + hi) / 2u;
        if (chunkStarts[mid] <= chunk) lo = mid;
        else hi = mid;
    }
    return lo;
}

void main() {
    uint chunk = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * kBoundsGroupSize + gl_LocalInvocationID.x;
    bool valid = chunk < push.boundsChunks;
    bool chunkIsObject = push.boundsChunks == push.objectCount;
    // Branches, not selects: the chunk starts are not bound when each object is one chunk.
    uint objectIndex = 0u, first = 0u;
    if (valid && chunkIsObject) {
        objectIndex = chunk;
    } else if (valid) {
        objectIndex = objectOfChunk(chunk);
        first = (chunk - chunkStarts[objectIndex]) * kBoundsChunkVertices;
    }
    ObjectGpu object = objects[objectIndex];
    uint end = valid ? min(object.vertices.count, first + kBoundsChunkVertices) : 0u;
    const float kInf = uintBitsToFloat(0x7f800000u);
    vec3 lo = vec3(kInf), hi = vec3(-kInf);
    for (uint vertex = first; vertex < end; ++vertex) {
        vec3 world = (object.objectToLocal * vec4(fetchVertex(object.vertices, vertex), 1.0)).xyz;
        lo = min(lo, world);
        hi = max(hi, world);
    }
    uint minSlot = objectIndex * 3u, maxSlot = (push.objectCount + objectIndex) * 3u;
    if (chunkIsObject) {
        if (end == 0u) return;  // no vertices: keeps the cleared "empty" box
        for (uint axis = 0u; axis < 3u; ++axis) {
            bounds[minSlot + axis] = encodeOrderedFloat(lo[axis]);
            bounds[maxSlot + axis] = encodeOrderedFloat(hi[axis]);
        }
        return;
    }
    bool oneObject = subgroupAll(valid) && subgroupAllEqual(objectIndex);
    bool elected = subgroupElect();
    if (oneObject) {
        lo = subgroupMin(lo);
        hi = subgroupMax(hi);
    }
    if (end == 0u || (oneObject && !elected)) return;
    for (uint axis = 0u; axis < 3u; ++axis) {
        atomicMin(bounds[minSlot + axis], encodeOrderedFloat(lo[axis]));
        atomicMax(bounds[maxSlot + axis], encodeOrderedFloat(hi[axis]));
    }
}
