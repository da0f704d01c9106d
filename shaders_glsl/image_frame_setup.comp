// An image-space frame (stencil, consistent-pairs) set up on the GPU from the same frame's
// candidate pairs and boxes (the broadphase's, or the host's uploaded in its layout), so no box,
// view or draw count comes from the CPU (paper 1's views, section 6.5, fitted where the pairs are).
//   kPhase 0, one thread per stored candidate pair: the region its boxes overlap in, the drawn
//            objects' box, each object of a pair flagged drawn (or excluded), counted once.
//   kPhase 1, one thread per scene object: its indirect draws, one instance if it is drawn, none
//            otherwise; thread 0 fits the views (shared/orthographic_fit.h) and writes the
//            dispatch over the stored candidates.
// The boxes are ordered-float encodings, so the region's min/max reduce with uint atomics.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"  // PairListHeader
#include "shared/float_order.h"
#include "shared/image_frame.h"
#include "shared/orthographic_fit.h"

layout(constant_id = 0) const uint kPhase = 0u;

layout(local_size_x = kImageFrameSetupGroupSize) in;

layout(set = 0, binding = kImageFrameBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kImageFrameBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kImageFrameBindingDraws, std430) readonly buffer Draws { ImageObjectDrawGpu draws[]; };
layout(set = 0, binding = kImageFrameBindingFrame, std430) buffer Frame { ImageFrameGpu frame; };
layout(set = 0, binding = kImageFrameBindingDrawn, std430) buffer Drawn { uint drawn[]; };
layout(set = 0, binding = kImageFrameBindingCommands, std430) writeonly buffer Commands { uint commands[]; };

layout(push_constant) uniform Push { ImageFrameSetupPush push; };

uint storedCandidates() {
    return min(candidateHeader.count, min(candidateHeader.capacity, push.candidateCapacity));
}

// Bounds: mins of every object (3 uints each), then maxes.
uint boxMin(uint object, uint axis) { return bounds[object * 3u + axis]; }
uint boxMax(uint object, uint axis) { return bounds[(push.objectCount + object) * 3u + axis]; }

void flagObject(uint object) {
    bool excluded = draws[object].excluded != 0u;
    if (atomicExchange(drawn[object], excluded ? kImageFrameExcluded : kImageFrameDrawn) != 0u) return;
    if (excluded)
        atomicAdd(frame.excludedObjects, 1u);
    else
        atomicAdd(frame.drawnObjects, 1u);
}

void addPair(uint index) {
    uvec2 pair = candidates[index];
    for (uint axis = 0u; axis < 3u; ++axis) {
        atomicMin(frame.roiMin[axis], max(boxMin(pair.x, axis), boxMin(pair.y, axis)));
        atomicMax(frame.roiMax[axis], min(boxMax(pair.x, axis), boxMax(pair.y, axis)));
        atomicMin(frame.depthMin[axis], min(boxMin(pair.x, axis), boxMin(pair.y, axis)));
        atomicMax(frame.depthMax[axis], max(boxMax(pair.x, axis), boxMax(pair.y, axis)));
    }
    flagObject(pair.x);
    flagObject(pair.y);
}

vec3 decodeBox(uint encoded[3]) {
    return vec3(decodeOrderedFloat(encoded[0]), decodeOrderedFloat(encoded[1]), decodeOrderedFloat(encoded[2]));
}

void fitViews() {
    uint stored = storedCandidates();
    frame.candidateCount = stored;
    commands[0] = (stored + kImageFrameSetupGroupSize - 1u) / kImageFrameSetupGroupSize;
    commands[1] = 1u;
    commands[2] = 1u;
    frame.pixelSize = 0.0;
    if (frame.drawnObjects == 0u) {  // nothing is drawn: any invertible view
        for (uint view = 0u; view < 3u; ++view) {
            frame.worldToClip[view] = mat4(1.0);
            frame.clipToWorld[view] = mat4(1.0);
        }
        return;
    }
    OrthographicRegion region = OrthographicRegion(decodeBox(frame.roiMin), decodeBox(frame.roiMax),
                                                   decodeBox(frame.depthMin), decodeBox(frame.depthMax));
    region = padOrthographicRegion(region, push.paddingPixels, push.resolution);
    for (uint view = 0u; view < push.views; ++view) {
        OrthographicViewGpu fitted = orthographicView(region, view, push.resolution);
        frame.worldToClip[view] = fitted.worldToClip;
        frame.clipToWorld[view] = fitted.clipToWorld;
        frame.pixelSize = max(frame.pixelSize, fitted.pixelSize);
    }
}

void writeDraws(uint object) {
    ImageObjectDrawGpu d = draws[object];
    uint instances = drawn[object] == kImageFrameDrawn ? 1u : 0u;
    for (uint k = 0u; k < push.drawsPerObject; ++k) {
        bool edges = k < push.edgeDraws;
        uint base = kImageFrameCommandFirstDraw + (k * push.objectCount + object) * kImageFrameCommandDrawUints;
        commands[base + 0u] = edges ? d.edgeCount : d.triangleCount;  // VkDrawIndexedIndirectCommand:
        commands[base + 1u] = instances;                              // indexCount, instanceCount,
        commands[base + 2u] = edges ? d.edgeFirst : d.triangleFirst;  // firstIndex, vertexOffset,
        commands[base + 3u] = 0u;                                     // firstInstance: the object,
        commands[base + 4u] = object;                                 // the draws' gl_InstanceIndex
    }
}

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (kPhase == 0u) {
        if (index < storedCandidates()) addPair(index);
        return;
    }
    if (index == 0u) fitViews();
    if (index < push.objectCount) writeDraws(index);
}
