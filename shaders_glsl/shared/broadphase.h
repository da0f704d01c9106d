// Broadphase layouts and limits shared by broadphase_*.comp and collision/broadphase*.cpp.
#ifndef VKC_SHARED_BROADPHASE_H
#define VKC_SHARED_BROADPHASE_H

#include "vertex_fetch.h"  // ObjectGpu, the vertex-buffer array

VKC_NAMESPACE_BEGIN

// Threads per workgroup of the bounds pass: one thread per vertex, 256 keeps lavapipe's and
// desktop GPUs' occupancy high without exceeding any device's 1024-invocation minimum limit.
VKC_CONSTANT(uint, kBoundsGroupSize, 256u)
// Threads per workgroup of the pair pass: one thread per candidate pair (i < j).
VKC_CONSTANT(uint, kPairsGroupSize, 64u)

VKC_CONSTANT(uint, kBindingObjects, 0u)
VKC_CONSTANT(uint, kBindingBounds, 1u)
VKC_CONSTANT(uint, kBindingPairs, 2u)

// World AABBs, order-preserving uint encoding of floats so atomicMin/Max work (float_order.h):
// bounds[object * 3 + axis] = min, bounds[(objectCount + object) * 3 + axis] = max. Mins and maxes
// are separate halves so two vkCmdFillBuffer calls reset them (to "empty": max uint / 0).

// Pair list header; pairs follow as uvec2 (a < b). count is exact even past capacity.
struct PairListHeader {
    uint count;
    uint capacity;
    uint pad0;
    uint pad1;
};

struct BroadphasePush {
    uint objectCount;
    uint pairCount;       // objectCount * (objectCount - 1) / 2
    float margin;         // world units added to every box before the overlap test
    uint pad;
};

VKC_NAMESPACE_END

#endif
