// World AABB of every object from its transformed vertices (meshes may deform every frame).
// Crowds of small meshes (push.threadPerObject): one thread per object walks its vertices and
// writes its box. Otherwise x covers the largest vertex count and the workgroup's (y, z) the object
// (z continues y past the device's row limit); each subgroup reduces its min/max first, so only
// one atomic per subgroup reaches memory (instead of one per vertex).
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

layout(push_constant) uniform Push { BroadphasePush push; };

void boundsOfWholeObject(uint objectIndex) {
    if (objectIndex >= push.objectCount) return;
    ObjectGpu object = objects[objectIndex];
    const float kInf = uintBitsToFloat(0x7f800000u);
    vec3 lo = vec3(kInf), hi = vec3(-kInf);
    for (uint vertex = 0u; vertex < object.vertices.count; ++vertex) {
        vec3 world = (object.objectToLocal * vec4(fetchVertex(object.vertices, vertex), 1.0)).xyz;
        lo = min(lo, world);
        hi = max(hi, world);
    }
    if (object.vertices.count == 0u) return;  // keeps the cleared "empty" box
    uint minSlot = objectIndex * 3u;
    uint maxSlot = (push.objectCount + objectIndex) * 3u;
    for (uint axis = 0u; axis < 3u; ++axis) {
        bounds[minSlot + axis] = encodeOrderedFloat(lo[axis]);
        bounds[maxSlot + axis] = encodeOrderedFloat(hi[axis]);
    }
}

void main() {
    if (push.threadPerObject != 0u) {
        boundsOfWholeObject(gl_GlobalInvocationID.x);
        return;
    }
    uint objectIndex = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    if (objectIndex >= push.objectCount) return;  // the last row of z is partly past the end
    ObjectGpu object = objects[objectIndex];
    uint vertex = gl_GlobalInvocationID.x;
    bool inRange = vertex < object.vertices.count;

    vec3 world = vec3(0.0);
    if (inRange) {
        world = (object.objectToLocal * vec4(fetchVertex(object.vertices, vertex), 1.0)).xyz;
    }
    const float kInf = uintBitsToFloat(0x7f800000u);
    vec3 lo = subgroupMin(inRange ? world : vec3(kInf));
    vec3 hi = subgroupMax(inRange ? world : vec3(-kInf));
    bool anyInRange = subgroupAny(inRange);
    if (anyInRange && subgroupElect()) {
        uint minSlot = objectIndex * 3u;
        uint maxSlot = (push.objectCount + objectIndex) * 3u;
        for (uint axis = 0u; axis < 3u; ++axis) {
            atomicMin(bounds[minSlot + axis], encodeOrderedFloat(lo[axis]));
            atomicMax(bounds[maxSlot + axis], encodeOrderedFloat(hi[axis]));
        }
    }
}
