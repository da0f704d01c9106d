// Potentially colliding set: every object pair (a < b) whose world AABBs overlap (with a margin),
// appended to a capacity-bounded pair list. One thread per candidate pair; the list order is not
// deterministic (callers sort). The count stays exact past capacity so the caller can grow.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require

#include "shared/broadphase.h"
#include "shared/float_order.h"

layout(local_size_x = kPairsGroupSize) in;

layout(set = 0, binding = kBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kBindingPairs, std430) buffer Pairs {
    PairListHeader header;
    uvec2 pairs[];
};

layout(push_constant) uniform Push { BroadphasePush push; };

// Inverse of the row-major upper-triangle enumeration: pair k ↦ (a, b), a < b.
uvec2 pairFromIndex(uint k, uint n) {
    // Row a starts at a * (2n - a - 1) / 2; solve the quadratic in double-free float, then fix up.
    float nf = float(n);
    uint a = uint(floor(nf - 0.5 - sqrt((nf - 0.5) * (nf - 0.5) - 2.0 * float(k))));
    a = min(a, n - 2u);
    while (a > 0u && a * (2u * n - a - 1u) / 2u > k) --a;
    while ((a + 1u) * (2u * n - a - 2u) / 2u <= k) ++a;
    uint rowStart = a * (2u * n - a - 1u) / 2u;
    return uvec2(a, a + 1u + (k - rowStart));
}

vec3 boundsMin(uint object) {
    uint s = object * 3u;
    return vec3(decodeOrderedFloat(bounds[s]), decodeOrderedFloat(bounds[s + 1u]),
                decodeOrderedFloat(bounds[s + 2u]));
}

vec3 boundsMax(uint object) {
    uint s = (push.objectCount + object) * 3u;
    return vec3(decodeOrderedFloat(bounds[s]), decodeOrderedFloat(bounds[s + 1u]),
                decodeOrderedFloat(bounds[s + 2u]));
}

void main() {
    // Grid-stride loop: pair counts exceed the 65535-workgroup dispatch limit past ~2900 objects.
    // Every lane runs the same number of iterations so the subgroup operations stay uniform.
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint iterations = (push.pairCount + stride - 1u) / stride;
    for (uint i = 0u; i < iterations; ++i) {
        uint k = gl_GlobalInvocationID.x + i * stride;
        bool overlap = false;
        uvec2 pair = uvec2(0u);
        if (k < push.pairCount) {
            pair = pairFromIndex(k, push.objectCount);
            vec3 m = vec3(push.margin);
            overlap = all(lessThanEqual(boundsMin(pair.x) - m, boundsMax(pair.y) + m)) &&
                      all(lessThanEqual(boundsMin(pair.y) - m, boundsMax(pair.x) + m));
        }
        // One atomic per subgroup: the elected lane reserves room for every overlapping lane.
        uvec4 ballot = subgroupBallot(overlap);
        uint total = subgroupBallotBitCount(ballot);
        uint base = 0u;
        if (subgroupElect() && total > 0u) base = atomicAdd(header.count, total);
        base = subgroupBroadcastFirst(base);
        if (overlap) {
            uint slot = base + subgroupBallotExclusiveBitCount(ballot);
            if (slot < header.capacity) pairs[slot] = pair;
        }
    }
}
