// Per-object pair counts (a = the object, counted by broadphase_pairs.comp) into the offsets where
// each object's pairs start in the grouped list: an exclusive scan, in place. One workgroup: each
// thread scans a contiguous chunk of objects, the chunks' sums are scanned in shared memory. The
// work is two reads and a write per object, far below the pair search's, so one workgroup is enough.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"

layout(local_size_x = kPairOffsetsThreads) in;

layout(set = 0, binding = kBindingPairOffsets, std430) buffer PairOffsets { uint pairOffsets[]; };

layout(push_constant) uniform Push { BroadphasePush push; };

shared uint chunkStart[kPairOffsetsThreads];

void main() {
    uint thread = gl_LocalInvocationID.x;
    uint chunk = (push.objectCount + kPairOffsetsThreads - 1u) / kPairOffsetsThreads;
    uint begin = min(thread * chunk, push.objectCount), end = min(begin + chunk, push.objectCount);
    uint sum = 0u;
    for (uint i = begin; i < end; ++i) sum += pairOffsets[i];
    chunkStart[thread] = sum;
    barrier();
    if (thread == 0u) {
        uint running = 0u;
        for (uint k = 0u; k < kPairOffsetsThreads; ++k) {
            uint count = chunkStart[k];
            chunkStart[k] = running;
            running += count;
        }
    }
    barrier();
    uint running = chunkStart[thread];
    for (uint i = begin; i < end; ++i) {
        uint count = pairOffsets[i];
        pairOffsets[i] = running;
        running += count;
    }
}
