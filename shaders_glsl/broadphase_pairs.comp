// Potentially colliding set: every object pair (a < b) whose margin-expanded world boxes overlap,
// found by one thread per leaf visiting only the subtrees after it in sorted order (so each pair is
// found once), appended to a capacity-bounded list, and counted per a for the grouping that
// follows (a prefix scan of the counts, broadphase_pair_group.comp). The list order is not
// deterministic; the count stays exact past capacity.
// The walk needs no stack: in Karras' tree the subtree that follows sorted position s (its "rope")
// is the right child of the node whose split is s, which by the tree's numbering is internal node
// s + 1 when that node's range starts at s + 1, and leaf s + 1 otherwise. So a thread starts at its
// leaf's rope, descends into a node whose box overlaps (left child first) and otherwise jumps to
// the rope of the node's last position. A stack per thread is private memory indexed at run time,
// which CPU implementations (lavapipe) spill and GPUs keep in slow local memory.
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
layout(set = 0, binding = kBindingPairOffsets, std430) buffer PairOffsets { uint pairOffsets[]; };

layout(push_constant) uniform Push { BroadphasePush push; };

#include "broadphase_tree_box.glsl"

const uint kRopeEnd = 0xffffffffu;  // past the last position (no node or leaf has this name)

// The subtree after sorted position `position`, or kRopeEnd.
uint ropeAfter(uint position) {
    uint next = position + 1u;
    if (next >= push.objectCount) return kRopeEnd;
    // Internal node `next` exists below objectCount - 1; its range starts at `next` when it ends after it.
    if (next + 1u < push.objectCount && nodes[next].last > next) return next;
    return kTreeLeafBit | next;
}

void main() {
    uint leaf = gl_GlobalInvocationID.x;
    if (leaf + 1u >= push.objectCount) return;  // the last leaf has nothing after it
    vec4 lo = leafBoxes[2u * leaf];
    uint object = floatBitsToUint(lo.w);
    TreeBox box = TreeBox(lo.xyz, leafBoxes[2u * leaf + 1u].xyz);
    if (any(greaterThan(box.lo, box.hi))) return;  // no vertices: overlaps nothing
    uint node = ropeAfter(leaf);
    while (node != kRopeEnd) {
        if ((node & kTreeLeafBit) != 0u) {
            uint position = node & ~kTreeLeafBit;
            vec4 otherLo = leafBoxes[2u * position];
            if (boxesOverlap(box, TreeBox(otherLo.xyz, leafBoxes[2u * position + 1u].xyz))) {
                uint other = floatBitsToUint(otherLo.w);
                uint slot = atomicAdd(header.count, 1u);
                if (slot < header.capacity) {
                    pairs[slot] = uvec2(min(object, other), max(object, other));
                    atomicAdd(pairOffsets[min(object, other)], 1u);  // counted for the grouping
                }
            }
            node = ropeAfter(position);
        } else if (boxesOverlap(box, TreeBox(nodes[node].lo.xyz, nodes[node].hi.xyz))) {
            node = nodes[node].left;
        } else {
            node = ropeAfter(nodes[node].last);
        }
    }
}
