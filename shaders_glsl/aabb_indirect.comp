// Prepares global level `globalLevel` of the batched traversal without a CPU round trip (paper 4,
// 4.2: the CPU waited for occlusion queries here). Reads: the count the previous level appended,
// this level's seed threads. Writes: VkDispatchIndirectCommand dispatch[level] (w = explicit
// entries, clamped), the overflow flag, and resets the list the level will append to.
// Invariant: an empty level with no seeds dispatches zero groups, so the rest of the recorded
// levels cost only their (empty) dispatches.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/aabb_tree.h"

layout(local_size_x = 1) in;
// Must equal aabb_traverse.comp's workgroup size (both default to kAabbTraverseGroupSize).
layout(constant_id = 0) const uint kTraverseGroupSize = kAabbTraverseGroupSize;

layout(set = 0, binding = kAabbBindingSeedLevels, std430) readonly buffer SeedLevels {
    AabbSeedLevelGpu seedLevels[kAabbMaxLevels];
};
layout(set = 0, binding = kAabbBindingState, std430) buffer State { AabbTraversalStateGpu state; };

layout(push_constant) uniform Push { AabbTraversePush push; };

void main() {
    uint level = push.globalLevel;
    uint readList = level & 1u;
    uint appended = state.listCount[readList];
    uint explicitCount = min(appended, push.listCapacity);
    // Keep the largest overflowing count (one thread: no atomics): the caller's "grow to at
    // least this" hint. A lower bound only: levels after an overflow append from a cut list.
    if (appended > push.listCapacity) state.nodePairOverflow = max(state.nodePairOverflow, appended);
    uint threads = explicitCount + seedLevels[level].threads;
    uint groups = threads / kTraverseGroupSize + ((threads % kTraverseGroupSize) != 0u ? 1u : 0u);
    state.dispatch[level] = uvec4(min(groups, kAabbMaxGroups), 1u, 1u, explicitCount);
    // The previous level read this list; this level appends the next level's entries to it.
    state.listCount[readList ^ 1u] = 0u;
}
