// Potentially colliding set: every object pair (a < b) whose margin-expanded world boxes overlap,
// found by one thread per leaf searching the tree for the leaves after it in sorted order (a
// subtree wholly before it is skipped, so each pair is found once), appended to a capacity-bounded
// list. The list order is not deterministic (callers sort); the count stays exact past capacity.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"

layout(local_size_x = kTreeGroupSize) in;

layout(set = 0, binding = kBindingTreeNodes, std430) readonly buffer Nodes { TreeNode nodes[]; };
layout(set = 0, binding = kBindingLeafBoxes, std430) readonly buffer LeafBoxes { vec4 leafBoxes[]; };
layout(set = 0, binding = kBindingPairs, std430) buffer Pairs {
    PairListHeader header;
    uvec2 pairs[];
};

layout(push_constant) uniform Push { BroadphasePush push; };

#include "broadphase_tree_box.glsl"

void main() {
    uint leaf = gl_GlobalInvocationID.x;
    if (leaf + 1u >= push.objectCount) return;  // the last leaf has nothing after it
    vec4 lo = leafBoxes[2u * leaf];
    uint object = floatBitsToUint(lo.w);
    TreeBox box = TreeBox(lo.xyz, leafBoxes[2u * leaf + 1u].xyz);
    if (any(greaterThan(box.lo, box.hi))) return;  // no vertices: overlaps nothing
    // Each level below the root lengthens the shared prefix of code and position (64 bits), and
    // the stack holds at most one pending sibling per level: kTreeStackDepth always suffices.
    uint stack[kTreeStackDepth];
    uint depth = 0u;
    uint node = 0u;
    while (true) {
        uint children[2] = uint[2](nodes[node].left, nodes[node].right);
        for (uint c = 0u; c < 2u; ++c) {
            uint child = children[c];
            if ((child & kTreeLeafBit) != 0u) {
                uint position = child & ~kTreeLeafBit;
                if (position <= leaf) continue;
                vec4 otherLo = leafBoxes[2u * position];
                if (!boxesOverlap(box, TreeBox(otherLo.xyz, leafBoxes[2u * position + 1u].xyz))) continue;
                uint other = floatBitsToUint(otherLo.w);
                uint slot = atomicAdd(header.count, 1u);
                if (slot < header.capacity) pairs[slot] = uvec2(min(object, other), max(object, other));
            } else if (nodes[child].last > leaf &&
                       boxesOverlap(box, TreeBox(nodes[child].lo.xyz, nodes[child].hi.xyz))) {
                stack[depth++] = child;
            }
        }
        if (depth == 0u) break;
        node = stack[--depth];
    }
}
