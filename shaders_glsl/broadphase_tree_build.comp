// The tree's internal nodes from the sorted codes, one thread per node, all at once (Karras 2012,
// section 4): node i's range extends from position i towards the neighbour whose code shares the
// longer prefix, its split is where the prefix shared with position i ends. Equal codes are told
// apart by their positions (the prefix of the code then the position), so duplicates make a
// balanced subtree.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"

layout(local_size_x = kTreeGroupSize) in;

layout(set = 0, binding = kBindingSortedCodes, std430) readonly buffer Codes { uint codes[]; };
layout(set = 0, binding = kBindingTreeNodes, std430) writeonly buffer Nodes { TreeNode nodes[]; };
layout(set = 0, binding = kBindingLeafParents, std430) writeonly buffer LeafParents { uint leafParents[]; };

layout(push_constant) uniform Push { BroadphasePush push; };

// Length of the prefix shared by positions i and j; -1 outside the leaves.
int commonPrefix(int i, int j) {
    if (j < 0 || j >= int(push.objectCount)) return -1;
    uint a = codes[i], b = codes[j];
    if (a != b) return 31 - findMSB(a ^ b);
    return 32 + (31 - findMSB(uint(i ^ j)));
}

void main() {
    int i = int(gl_GlobalInvocationID.x);
    if (i + 1 >= int(push.objectCount)) return;  // n - 1 internal nodes
    int direction = commonPrefix(i, i + 1) - commonPrefix(i, i - 1) >= 0 ? 1 : -1;
    int minPrefix = commonPrefix(i, i - direction);
    int maxLength = 2;
    while (commonPrefix(i, i + maxLength * direction) > minPrefix) maxLength *= 2;
    int length = 0;
    for (int step = maxLength / 2; step >= 1; step /= 2)
        if (commonPrefix(i, i + (length + step) * direction) > minPrefix) length += step;
    int j = i + length * direction;
    int nodePrefix = commonPrefix(i, j);
    // Steps ceil(length / 2), ceil(length / 4), ..., 1.
    int split = 0;
    for (int divisor = 2;; divisor *= 2) {
        int step = (length + divisor - 1) / divisor;
        if (commonPrefix(i, i + (split + step) * direction) > nodePrefix) split += step;
        if (step <= 1) break;
    }
    int gamma = i + split * direction + min(direction, 0);
    int first = min(i, j), last = max(i, j);
    uint left = first == gamma ? (kTreeLeafBit | uint(gamma)) : uint(gamma);
    uint right = last == gamma + 1 ? (kTreeLeafBit | uint(gamma + 1)) : uint(gamma + 1);
    nodes[i].left = left;
    nodes[i].right = right;
    nodes[i].last = uint(last);
    if (i == 0) nodes[0].parent = 0u;
    for (uint child = 0u; child < 2u; ++child) {
        uint c = child == 0u ? left : right;
        if ((c & kTreeLeafBit) != 0u) leafParents[c & ~kTreeLeafBit] = uint(i);
        else nodes[c].parent = uint(i);
    }
}
