// The stored pairs grouped by their first object, groups in increasing object order: each pair
// goes to the next free place of its group (the per-object counts' prefix scan, bumped
// atomically), so only the order inside a group is left to the host, whose groups are a few
// pairs each instead of one list to sort whole. The header (the exact count) is copied along.
// Threads loop over the list: its capacity may exceed one dispatch's workgroups.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"

layout(local_size_x = kTreeGroupSize) in;

layout(set = 0, binding = kBindingPairs, std430) readonly buffer Pairs {
    PairListHeader header;
    uvec2 pairs[];
};
layout(set = 0, binding = kBindingPairOffsets, std430) buffer PairOffsets { uint pairOffsets[]; };
layout(set = 0, binding = kBindingGroupedPairs, std430) writeonly buffer GroupedPairs {
    PairListHeader groupedHeader;
    uvec2 groupedPairs[];
};

void main() {
    if (gl_GlobalInvocationID.x == 0u) groupedHeader = header;
    uint stored = min(header.count, header.capacity);
    for (uint i = gl_GlobalInvocationID.x; i < stored; i += gl_NumWorkGroups.x * kTreeGroupSize) {
        uvec2 pair = pairs[i];
        groupedPairs[atomicAdd(pairOffsets[pair.x], 1u)] = pair;
    }
}
