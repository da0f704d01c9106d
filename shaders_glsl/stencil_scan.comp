// Scans one view's id images on the GPU (no CPU read of the image, paper 1, sections 5 and 6.2):
// each pixel holding a penetrating id a and a penetrated id b != a flags candidate (a, b) as seen
// with a penetrating (candidate_flags.glsl) and appends the unprojected world-space edge point to
// the capacity-bounded point list (count exact past capacity). The flags make pairs unique for the
// compaction.
// Every id either image holds also flags its object (kStencilObject*), in place of the per-object
// occlusion queries a pass per object would need (StencilFrameDetails' object lists).
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"  // PairListHeader
#include "shared/image_frame.h"
#include "shared/stencil.h"

layout(local_size_x = kStencilScanGroupSize, local_size_y = kStencilScanGroupSize) in;

layout(set = 0, binding = kStencilBindingPenetratingImage, rgba32ui) readonly uniform uimage2D penetrating;
layout(set = 0, binding = kStencilBindingPenetratedImage, r32ui) readonly uniform uimage2D penetrated;
layout(set = 0, binding = kStencilBindingPairFlags, std430) buffer PairFlags { uint pairFlags[]; };
layout(set = 0, binding = kStencilBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kStencilBindingCandidateSlots, std430) readonly buffer CandidateSlots { uint candidateSlots[]; };
layout(set = 0, binding = kStencilBindingPoints, std430) buffer Points {
    StencilListHeader pointHeader;
    StencilPointGpu points[];
};

layout(set = 0, binding = kStencilBindingFrame, std430) readonly buffer Frame { ImageFrameGpu frame; };
layout(set = 0, binding = kStencilBindingObjectFlags, std430) buffer ObjectFlags { uint objectFlags[]; };

layout(push_constant) uniform Push { StencilScanPush push; };

#include "candidate_flags.glsl"

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (pixel.x >= push.width || pixel.y >= push.height) return;
    uvec4 edge = imageLoad(penetrating, ivec2(pixel));
    uint inside = imageLoad(penetrated, ivec2(pixel)).x;
    // Set once per object and view in practice: the load keeps most pixels from an atomic.
    if (edge.x != 0u && (objectFlags[edge.x - 1u] & kStencilObjectPenetrating) == 0u)
        atomicOr(objectFlags[edge.x - 1u], kStencilObjectPenetrating);
    if (inside != 0u && (objectFlags[inside - 1u] & kStencilObjectPenetrated) == 0u)
        atomicOr(objectFlags[inside - 1u], kStencilObjectPenetrated);
    if (edge.x == 0u || inside == 0u || edge.x == inside) return;
    uint a = edge.x - 1u;
    uint b = inside - 1u;
    flagCandidate(a, b, push.candidateSlotMask);

    vec2 ndc = (vec2(pixel) + 0.5) / vec2(push.width, push.height) * 2.0 - 1.0;
    vec4 world = frame.clipToWorld[push.view] * vec4(ndc, uintBitsToFloat(edge.y), 1.0);
    uint slot = atomicAdd(pointHeader.count, 1u);
    if (slot < push.pointCapacity)
        points[slot] = StencilPointGpu(world.x / world.w, world.y / world.w, world.z / world.w, (a << 16u) | b);
}
