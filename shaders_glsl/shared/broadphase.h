// Broadphase layouts and limits shared by broadphase_*.comp and collision/broadphase*.cpp.
#ifndef VKC_SHARED_BROADPHASE_H
#define VKC_SHARED_BROADPHASE_H

#include "vertex_fetch.h"  // ObjectGpu, the vertex-buffer array

VKC_NAMESPACE_BEGIN

// Threads per workgroup of the bounds pass: one thread per chunk of an object's vertices.
VKC_CONSTANT(uint, kBoundsGroupSize, 256u)
// Threads per workgroup of the tree passes (centre box, Morton codes, build, fit, pair search):
// one thread per object, internal node or leaf.
VKC_CONSTANT(uint, kTreeGroupSize, 64u)
// The bounds pass's chunk: each thread walks at most this many of one object's vertices, so its
// threads follow the scene's vertices (a box is one thread, a million-vertex mesh 15,625).
VKC_CONSTANT(uint, kBoundsChunkVertices, 64u)
// A child reference with this bit is a leaf (its sorted position), else an internal node.
VKC_CONSTANT(uint, kTreeLeafBit, 0x80000000u)

VKC_CONSTANT(uint, kBindingObjects, 0u)
VKC_CONSTANT(uint, kBindingBounds, 1u)
VKC_CONSTANT(uint, kBindingPairs, 2u)
VKC_CONSTANT(uint, kBindingCentreBox, 3u)
VKC_CONSTANT(uint, kBindingSortedCodes, 4u)  // radix_sort.h's keys-then-values buffer, sorted
VKC_CONSTANT(uint, kBindingTreeNodes, 5u)
VKC_CONSTANT(uint, kBindingLeafParents, 6u)
VKC_CONSTANT(uint, kBindingFitVisits, 7u)
VKC_CONSTANT(uint, kBindingLeafBoxes, 8u)  // per sorted position: lo (w: the object's index bits), hi
VKC_CONSTANT(uint, kBindingPairOffsets, 9u)  // per object: its stored pairs (a = it), then where they start
VKC_CONSTANT(uint, kBindingGroupedPairs, 10u)  // the pair list again, grouped by a in increasing order
VKC_CONSTANT(uint, kBindingChunkStarts, 11u)   // per object: its first bounds chunk (when some have several)

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
    uint boundsChunks;     // bounds pass: chunks of every object; objectCount when each object is one
    float margin;          // world units added to every box before the overlap test
    uint pad;
};

// The tree over the objects (Karras 2012, "Maximizing parallelism in the construction of BVHs,
// octrees, and k-d trees"): objects sorted by the Morton code of their box centre are the leaves;
// internal node i (n - 1 of them, the root is 0) covers sorted positions first..last. Boxes are
// the margin-expanded object boxes and their unions, so the search tests exactly the reference's rule.
struct TreeNode {
    vec4 lo;       // xyz: box minimum
    vec4 hi;       // xyz: box maximum
    uint left;     // kTreeLeafBit | position, or an internal node
    uint right;
    uint parent;   // the root's is its own index, 0
    uint last;     // the last sorted position it covers (the search skips nodes left of its leaf)
};

VKC_NAMESPACE_END

#endif
