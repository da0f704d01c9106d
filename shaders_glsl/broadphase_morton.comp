// Each object's key for the sort: the 30-bit Morton code of its box centre quantised to 1024
// steps per axis of the centre box (objects without vertices get the largest key); its value is
// the object's index.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"

layout(local_size_x = kTreeGroupSize) in;

layout(set = 0, binding = kBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kBindingCentreBox, std430) readonly buffer CentreBox { uint centreBox[6]; };
layout(set = 0, binding = kBindingSortedCodes, std430) writeonly buffer Codes { uint codes[]; };

layout(push_constant) uniform Push { BroadphasePush push; };

#include "broadphase_object_box.glsl"

// The 10 low bits of v spread to every third bit.
uint spreadBits(uint v) {
    v = (v * 0x00010001u) & 0xff0000ffu;
    v = (v * 0x00000101u) & 0x0f00f00fu;
    v = (v * 0x00000011u) & 0xc30c30c3u;
    v = (v * 0x00000005u) & 0x49249249u;
    return v;
}

void main() {
    uint object = gl_GlobalInvocationID.x;
    if (object >= push.objectCount) return;
    TreeBox box = objectBox(object, push.objectCount, 0.0);
    uint code = 0xffffffffu;
    if (all(lessThanEqual(box.lo, box.hi))) {
        vec3 lo = vec3(decodeOrderedFloat(centreBox[0]), decodeOrderedFloat(centreBox[1]), decodeOrderedFloat(centreBox[2]));
        vec3 hi = vec3(decodeOrderedFloat(centreBox[3]), decodeOrderedFloat(centreBox[4]), decodeOrderedFloat(centreBox[5]));
        vec3 extent = hi - lo;
        vec3 centre = box.lo + (box.hi - box.lo) * 0.5;
        // A flat centre box (every centre on one plane) quantises that axis to 0.
        vec3 unit = clamp((centre - lo) / max(extent, vec3(1e-30)), 0.0, 1.0);
        uvec3 q = uvec3(min(unit * 1024.0, vec3(1023.0)));
        code = (spreadBits(q.x) << 2u) | (spreadBits(q.y) << 1u) | spreadBits(q.z);
    }
    codes[object] = code;
    codes[push.objectCount + object] = object;
}
