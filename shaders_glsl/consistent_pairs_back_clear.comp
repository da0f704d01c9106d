// Consistent pairs, the window's nearest-back-face slots cleared ("no back face") before the
// consistency pass, in compute so that a skipped iteration skips it: its dispatch, written by the
// decision pass, has no workgroups then. A transfer command (vkCmdClearColorImage) cannot be
// skipped on the GPU.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs.h"

layout(local_size_x = kConsistentPairsImageGroupSize, local_size_y = kConsistentPairsImageGroupSize) in;

layout(set = 0, binding = kConsistentPairsBindingBackDepthArray, r32ui) writeonly uniform uimage2DArray backDepth;
layout(set = 0, binding = kConsistentPairsBindingBackIdArray, rg32ui) writeonly uniform uimage2DArray backId;

layout(push_constant) uniform Push { ConsistentPairsImagesPush push; };

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (pixel.x >= int(push.resolution) || pixel.y >= int(push.resolution)) return;
    for (int slot = 0; slot < int(push.layerCount); ++slot) {
        imageStore(backDepth, ivec3(pixel, slot), uvec4(kConsistentPairsNoDepth, 0u, 0u, 0u));
        imageStore(backId, ivec3(pixel, slot), uvec4(0u));
    }
}
