// Refit of the AABB trees of deformed meshes, one level per dispatch, bottom-up (paper 4, 4.1).
// Reads: vertex positions (any stride, in the tree's space: object space or already transformed),
// leaves, the boxes of the level below. Writes: the boxes of level levelCount-1-bottomUpLevel.
// Grid: y = entry of the refit tree list, x = node of that level (grid-stride past 65535 groups).
// Invariant: same min/max as refitAabbTree() on the CPU (min/max are exact, so bit-identical).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/aabb_tree.h"
#include "vertex_fetch.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = kAabbRefitGroupSize;

layout(set = 0, binding = kAabbBindingTrees, std430) readonly buffer Trees { AabbTreeGpu trees[]; };
layout(set = 0, binding = kAabbBindingNodes, std430) buffer Nodes { AabbNodeGpu nodes[]; };
layout(set = 0, binding = kAabbBindingLeaves, std430) readonly buffer Leaves { uvec4 leaves[]; };
layout(set = 0, binding = kAabbBindingRefitTrees, std430) readonly buffer RefitTrees { uint refitTrees[]; };

layout(push_constant) uniform Push { AabbRefitPush push; };

void main() {
    if (gl_WorkGroupID.y >= push.treeCount) return;
    // The tree is uniform across the workgroup (one tree per workgroup row).
    uint tree = refitTrees[gl_WorkGroupID.y];
    uint levelCount = trees[tree].levelCount;
    if (push.bottomUpLevel >= levelCount) return;  // shallower tree: already at its root
    uint level = levelCount - 1u - push.bottomUpLevel;
    uint levelFirst = trees[tree].nodeOffset + trees[tree].levelStart[level];
    uint size = trees[tree].levelStart[level + 1u] - trees[tree].levelStart[level];
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;

    for (uint i = gl_GlobalInvocationID.x; i < size; i += stride) {
        vec3 lo;
        vec3 hi;
        if (push.bottomUpLevel == 0u) {
            uvec4 leaf = leaves[trees[tree].leafOffset + i];
            VertexSourceGpu vertices = trees[tree].vertices;
            vec3 corner[3];
            for (uint k = 0u; k < 3u; ++k) corner[k] = fetchVertex(vertices, leaf[k]);
            lo = min(min(corner[0], corner[1]), corner[2]);
            hi = max(max(corner[0], corner[1]), corner[2]);
        } else {
            // Children 2i and (unless i is the odd level's last node) 2i+1 of the level below.
            uint childFirst = trees[tree].nodeOffset + trees[tree].levelStart[level + 1u];
            uint childSize = trees[tree].levelStart[level + 2u] - trees[tree].levelStart[level + 1u];
            AabbNodeGpu left = nodes[childFirst + 2u * i];
            lo = left.lo.xyz;
            hi = left.hi.xyz;
            if (aabbChildCount(i, childSize) == 2u) {
                AabbNodeGpu right = nodes[childFirst + 2u * i + 1u];
                lo = min(lo, right.lo.xyz);
                hi = max(hi, right.hi.xyz);
            }
        }
        nodes[levelFirst + i] = AabbNodeGpu(vec4(lo, 0.0), vec4(hi, 0.0));
    }
}
