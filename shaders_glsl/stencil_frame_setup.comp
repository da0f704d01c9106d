// Stencil method, the frame set up on the GPU from the same frame's candidate pairs and boxes (the
// broadphase's, or the host's uploaded in its layout), so no box, view or draw count comes from
// the CPU (paper 1's views, section 6.5, fitted where the pairs are).
//   kPhase 0, one thread per stored candidate pair: the region its boxes overlap in, the drawn
//            objects' box, each object of a pair flagged as drawn, counted once.
//   kPhase 1, one thread per scene object: its indirect edge and triangle draws, one instance if
//            it is drawn, none otherwise; thread 0 fits the views (shared/orthographic_fit.h) and
//            writes the compaction's dispatch for the stored candidates.
// The boxes are ordered-float encodings, so the region's min/max reduce with uint atomics.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "shared/broadphase.h"  // PairListHeader
#include "shared/float_order.h"
#include "shared/orthographic_fit.h"
#include "shared/stencil.h"

layout(constant_id = 0) const uint kPhase = 0u;

layout(local_size_x = kStencilSetupGroupSize) in;

layout(set = 0, binding = kStencilBindingCandidates, std430) readonly buffer Candidates {
    PairListHeader candidateHeader;
    uvec2 candidates[];
};
layout(set = 0, binding = kStencilBindingBounds, std430) readonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = kStencilBindingObjects, std430) readonly buffer Objects { StencilObjectGpu objects[]; };
layout(set = 0, binding = kStencilBindingFrame, std430) buffer Frame { StencilFrameGpu frame; };
// Per scene object: 1 when drawn.
layout(set = 0, binding = kStencilBindingDrawn, std430) buffer Drawn { uint drawn[]; };
layout(set = 0, binding = kStencilBindingCommands, std430) writeonly buffer Commands { uint commands[]; };

layout(push_constant) uniform Push { StencilSetupPush push; };

uint storedCandidates() {
    return min(candidateHeader.count, min(candidateHeader.capacity, push.candidateCapacity));
}

// Bounds: mins of every object (3 uints each), then maxes.
uint boxMin(uint object, uint axis) { return bounds[object * 3u + axis]; }
uint boxMax(uint object, uint axis) { return bounds[(push.objectCount + object) * 3u + axis]; }

void markDrawn(uint object) {
    if (atomicExchange(drawn[object], 1u) != 0u) return;
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
    markDrawn(pair.x);
    markDrawn(pair.y);
}

vec3 decodeBox(uint encoded[3]) {
    return vec3(decodeOrderedFloat(encoded[0]), decodeOrderedFloat(encoded[1]), decodeOrderedFloat(encoded[2]));
}

void fitViews() {
    uint stored = storedCandidates();
    frame.candidateCount = stored;
    commands[0] = (stored + kStencilCompactGroupSize - 1u) / kStencilCompactGroupSize;
    commands[1] = 1u;
    commands[2] = 1u;
    frame.pixelSize = 0.0;
    if (frame.drawnObjects == 0u) {
        for (uint view = 0u; view < 3u; ++view) {
            frame.worldToClip[view] = mat4(1.0);
            frame.clipToWorld[view] = mat4(1.0);
        }
        frame.edgeOffset = 0.0;
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
    frame.edgeOffset = push.edgeOffsetPixels * frame.pixelSize;
}

void writeDraws(uint object) {
    StencilObjectGpu o = objects[object];
    uint instances = drawn[object] != 0u ? 1u : 0u;
    uint base = kStencilCommandFirstDraw + object * 2u * kStencilCommandDrawUints;
    commands[base + 0u] = o.edgeCount;  // VkDrawIndexedIndirectCommand: indexCount, instanceCount,
    commands[base + 1u] = instances;    // firstIndex, vertexOffset, firstInstance
    commands[base + 2u] = o.edgeFirst;
    commands[base + 3u] = 0u;
    commands[base + 4u] = 0u;
    base += kStencilCommandDrawUints;
    commands[base + 0u] = o.triangleCount;
    commands[base + 1u] = instances;
    commands[base + 2u] = o.triangleFirst;
    commands[base + 3u] = 0u;
    commands[base + 4u] = 0u;
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
