// Consistent pairs, a peel's colour target copied into its slot of the front-layer array (which the
// paper kept in the channels of three MRT textures), in compute so that a skipped iteration skips
// it: its dispatch, written by the decision pass, has no workgroups then. A transfer command
// (vkCmdCopyImage) cannot be skipped on the GPU.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/consistent_pairs.h"

layout(local_size_x = kConsistentPairsImageGroupSize, local_size_y = kConsistentPairsImageGroupSize) in;

layout(set = 0, binding = kConsistentPairsBindingPeelTarget, rgba32ui) readonly uniform uimage2D peelTarget;
layout(set = 0, binding = kConsistentPairsBindingLayerArray, rgba32ui) writeonly uniform uimage2DArray layers;

layout(push_constant) uniform Push { ConsistentPairsImagesPush push; };

void main() {
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (pixel.x >= int(push.resolution) || pixel.y >= int(push.resolution)) return;
    imageStore(layers, ivec3(pixel, int(push.layer)), imageLoad(peelTarget, pixel));
}
