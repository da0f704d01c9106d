// An image-space frame (stencil's views, consistent-pairs' view) set up on the GPU from the
// frame's candidate pairs and boxes: layouts and bindings shared by image_frame_setup.comp, the
// methods' shaders that read the views, and passes/shared/image_frame_setup_pass.cpp.
#ifndef VKC_SHARED_IMAGE_FRAME_H
#define VKC_SHARED_IMAGE_FRAME_H

#include "glsl_cpp.h"

VKC_NAMESPACE_BEGIN

VKC_CONSTANT(uint, kImageFrameSetupGroupSize, 64u)

// Setup set (compute).
VKC_CONSTANT(uint, kImageFrameBindingCandidates, 0u)  // PairListHeader, then uvec2 (broadphase layout)
VKC_CONSTANT(uint, kImageFrameBindingBounds, 1u)      // ordered-float boxes (gpu_candidates.h)
VKC_CONSTANT(uint, kImageFrameBindingDraws, 2u)       // ImageObjectDrawGpu per scene object
VKC_CONSTANT(uint, kImageFrameBindingFrame, 3u)       // ImageFrameGpu
VKC_CONSTANT(uint, kImageFrameBindingDrawn, 4u)       // uint per scene object: kImageFrameDrawn, kImageFrameExcluded or 0
VKC_CONSTANT(uint, kImageFrameBindingCommands, 5u)    // the commands below

VKC_CONSTANT(uint, kImageFrameDrawn, 1u)     // in a candidate pair, drawn
VKC_CONSTANT(uint, kImageFrameExcluded, 2u)  // in a candidate pair, not drawn (ImageObjectDrawGpu::excluded)

// The frame as its setup fitted it (std430, 448 bytes; paper 1, 6.5): the region the candidate
// pairs' boxes overlap in and the drawn objects' box for depth, both as ordered-float encodings
// reduced with atomics, then each view's matrices (views along z, x, y).
struct ImageFrameGpu {
    uint roiMin[3];
    uint drawnObjects;     // objects of the candidate pairs drawn (each counted once)
    uint roiMax[3];
    uint candidateCount;   // candidate pairs read (stored entries of the list)
    uint depthMin[3];
    float pixelSize;       // world units: the coarsest pixel side over the views
    uint depthMax[3];
    uint excludedObjects;  // objects of the candidate pairs not drawn (excluded)
    mat4 worldToClip[3];
    mat4 clipToWorld[3];
};

// What an object's draws draw: index ranges in the method's index buffer.
struct ImageObjectDrawGpu {
    uint edgeFirst;
    uint edgeCount;
    uint triangleFirst;
    uint triangleCount;
    uint excluded;  // 1: never drawn (a mesh the method cannot measure); the pairs it is in are not tested
    uint pad0;
    uint pad1;
    uint pad2;
};

struct ImageFrameSetupPush {
    uint objectCount;
    uint candidateCapacity;  // entries the candidate list stores at most
    uint views;
    uint resolution;
    float paddingPixels;
    uint drawsPerObject;     // indexed draws per object
    uint edgeDraws;          // the first edgeDraws of them draw the edges, the others the triangles
    uint pad;
};

// The commands the setup writes: the candidates' dispatch (uvec4: groups of
// kImageFrameSetupGroupSize, 1, 1, pad), then draw k of object o (VkDrawIndexedIndirectCommand,
// 5 uints) at kImageFrameCommandFirstDraw + (k * objectCount + o) * 5, one instance when o is drawn,
// firstInstance o: the draws of every object with the same k are one multi-draw, whose vertex
// shaders read their object from gl_InstanceIndex.
VKC_CONSTANT(uint, kImageFrameCommandDrawUints, 5u)
VKC_CONSTANT(uint, kImageFrameCommandFirstDraw, 4u)

VKC_NAMESPACE_END

#endif
