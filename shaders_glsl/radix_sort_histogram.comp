// Radix sort, step 1 of a pass: how many keys of each digit every block holds.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/radix_sort.h"

layout(local_size_x = kRadixGroupSize) in;

layout(set = 0, binding = kRadixBindingSource, std430) readonly buffer Source { uint source[]; };
layout(set = 0, binding = kRadixBindingHistogram, std430) writeonly buffer Histogram { uint histogram[]; };

layout(push_constant) uniform Push { RadixSortPush push; };

shared uint counts[kRadixDigits];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint block = gl_WorkGroupID.x;
    counts[t] = 0u;
    barrier();
    for (uint round = 0u; round < kRadixRounds; ++round) {
        uint i = block * kRadixBlockSize + round * kRadixGroupSize + t;
        if (i < push.count) atomicAdd(counts[(source[i] >> push.shift) & 0xffu], 1u);
    }
    barrier();
    histogram[t * push.blockCount + block] = counts[t];
}
