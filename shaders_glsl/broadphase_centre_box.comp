// The box of all object box centres, which the Morton codes quantise (one thread per object).
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require

#include "shared/broadphase.h"

layout(local_size_x = kTreeGroupSize) in;

layout(set = 0, binding = kBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kBindingCentreBox, std430) buffer CentreBox { uint centreBox[6]; };

layout(push_constant) uniform Push { BroadphasePush push; };

#include "broadphase_object_box.glsl"

void main() {
    uint object = gl_GlobalInvocationID.x;
    bool counted = false;
    vec3 centre = vec3(0.0);
    if (object < push.objectCount) {
        TreeBox box = objectBox(object, push.objectCount, 0.0);
        counted = all(lessThanEqual(box.lo, box.hi));
        centre = box.lo + (box.hi - box.lo) * 0.5;
    }
    vec3 lo = subgroupMin(counted ? centre : vec3(kTreeInf));
    vec3 hi = subgroupMax(counted ? centre : vec3(-kTreeInf));
    if (subgroupAny(counted) && subgroupElect()) {
        for (uint axis = 0u; axis < 3u; ++axis) {
            atomicMin(centreBox[axis], encodeOrderedFloat(lo[axis]));
            atomicMax(centreBox[3u + axis], encodeOrderedFloat(hi[axis]));
        }
    }
}
