// The internal nodes' boxes, bottom-up (Karras 2012, section 4): one thread per leaf writes its
// box in sorted order (the pair search then reads neighbours' boxes from nearby memory) and
// climbs towards the root; at each node the first child's thread to arrive stops, the second
// (both boxes are then written) unites them and goes on, so every node is fitted once.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"

layout(local_size_x = kTreeGroupSize) in;

layout(set = 0, binding = kBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kBindingSortedCodes, std430) readonly buffer Codes { uint codes[]; };
layout(set = 0, binding = kBindingTreeNodes, std430) coherent buffer Nodes { TreeNode nodes[]; };
layout(set = 0, binding = kBindingLeafParents, std430) readonly buffer LeafParents { uint leafParents[]; };
layout(set = 0, binding = kBindingFitVisits, std430) coherent buffer FitVisits { uint visits[]; };
layout(set = 0, binding = kBindingLeafBoxes, std430) coherent buffer LeafBoxes { vec4 leafBoxes[]; };

layout(push_constant) uniform Push { BroadphasePush push; };

#include "broadphase_object_box.glsl"

TreeBox childBox(uint child) {
    if ((child & kTreeLeafBit) != 0u) {
        uint position = child & ~kTreeLeafBit;
        return TreeBox(leafBoxes[2u * position].xyz, leafBoxes[2u * position + 1u].xyz);
    }
    return TreeBox(nodes[child].lo.xyz, nodes[child].hi.xyz);
}

void main() {
    uint leaf = gl_GlobalInvocationID.x;
    if (leaf >= push.objectCount) return;
    uint object = codes[push.objectCount + leaf];
    TreeBox box = objectBox(object, push.objectCount, push.margin);
    leafBoxes[2u * leaf] = vec4(box.lo, uintBitsToFloat(object));
    leafBoxes[2u * leaf + 1u] = vec4(box.hi, 0.0);
    if (push.objectCount < 2u) return;
    uint node = leafParents[leaf];
    while (true) {
        // Makes this thread's box writes visible before the other child's thread can see the count.
        memoryBarrierBuffer();
        if (atomicAdd(visits[node], 1u) == 0u) return;
        memoryBarrierBuffer();
        TreeBox a = childBox(nodes[node].left), b = childBox(nodes[node].right);
        nodes[node].lo = vec4(min(a.lo, b.lo), 0.0);
        nodes[node].hi = vec4(max(a.hi, b.hi), 0.0);
        if (node == 0u) return;
        node = nodes[node].parent;
    }
}
