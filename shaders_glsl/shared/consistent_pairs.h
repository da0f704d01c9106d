// Method `consistent-pairs` (paper 3, Jang, Jeong & Han): layouts, bindings and limits shared by
// shaders_glsl/cp_* and passes/consistent_pairs_*.cpp, collision/consistent_pairs_detector*.cpp.
#ifndef VKC_SHARED_CONSISTENT_PAIRS_H
#define VKC_SHARED_CONSISTENT_PAIRS_H

#include "vertex_fetch.h"  // ObjectGpu, the vertex-buffer array

VKC_NAMESPACE_BEGIN

// Front layers one iteration keeps (the paper's 3 textures, section 5): a descriptor array, so a
// compile-time bound; layersPerIteration picks how many of them a frame uses.
VKC_CONSTANT(uint, kConsistentPairsMaxLayers, 8u)
// Iterations one frame may record (all are recorded up front; the GPU skips the unneeded ones).
VKC_CONSTANT(uint, kConsistentPairsMaxIterations, 64u)
// One thread per drawn object when the decision pass rewrites the next iteration's draws.
VKC_CONSTANT(uint, kConsistentPairsDecideGroupSize, 64u)
// An empty layer texel: no front face (object field 0; objects are stored as index + 1).
VKC_CONSTANT(uint, kConsistentPairsNoObject, 0u)
// "No back face" in the per-slot nearest-back-face image (atomicMin of the depth bits).
VKC_CONSTANT(uint, kConsistentPairsNoDepth, 0xffffffffu)

// Point flags: which of the two surfaces is a front face (paper 4.3, Fig. 7).
VKC_CONSTANT(uint, kConsistentPairsPointFrontP, 1u)
VKC_CONSTANT(uint, kConsistentPairsPointFrontT, 2u)

// Set 0 (every draw): objects, the frame's limits, its view (ImageFrameGpu, set up on the GPU:
// shared/image_frame.h) and the vertex buffers (kBindingVertexBuffers).
VKC_CONSTANT(uint, kConsistentPairsBindingObjects, 0u)
VKC_CONSTANT(uint, kConsistentPairsBindingFrame, 1u)
VKC_CONSTANT(uint, kConsistentPairsBindingView, 2u)
// Set 1 of every draw: the front layers (the peel reads the previous one), then what the window
// passes (consistency, back ids, determination) read and write.
VKC_CONSTANT(uint, kConsistentPairsBindingLayers, 0u)
VKC_CONSTANT(uint, kConsistentPairsBindingBackDepth, 1u)
VKC_CONSTANT(uint, kConsistentPairsBindingBackId, 2u)
VKC_CONSTANT(uint, kConsistentPairsBindingPairFlags, 3u)  // two bits per candidate (candidate_flags.glsl)
VKC_CONSTANT(uint, kConsistentPairsBindingStats, 4u)
VKC_CONSTANT(uint, kConsistentPairsBindingPoints, 5u)
// Inconsistent back-face fragments per pixel (keepImages; else a placeholder the shader skips).
VKC_CONSTANT(uint, kConsistentPairsBindingInconsistentImage, 6u)
// The candidates and their hash slots (candidate_flags.glsl): an inconsistent pair flags its candidate.
VKC_CONSTANT(uint, kConsistentPairsBindingCandidates, 7u)
VKC_CONSTANT(uint, kConsistentPairsBindingCandidateSlots, 8u)
// Decision set (compute): the stats, the indirect draws, the frame's view and drawn flags, the
// iterations' own commands.
VKC_CONSTANT(uint, kConsistentPairsBindingDecideStats, 0u)
VKC_CONSTANT(uint, kConsistentPairsBindingDraws, 1u)
VKC_CONSTANT(uint, kConsistentPairsBindingDecideView, 2u)
VKC_CONSTANT(uint, kConsistentPairsBindingDecideDrawn, 3u)
VKC_CONSTANT(uint, kConsistentPairsBindingIterations, 4u)
// Iteration image set (compute: consistent_pairs_layer_copy.comp uses the first two,
// consistent_pairs_back_clear.comp the last two): the peel's colour target, the front layers, the
// nearest back faces and their ids.
VKC_CONSTANT(uint, kConsistentPairsBindingPeelTarget, 0u)
VKC_CONSTANT(uint, kConsistentPairsBindingLayerArray, 1u)
VKC_CONSTANT(uint, kConsistentPairsBindingBackDepthArray, 2u)
VKC_CONSTANT(uint, kConsistentPairsBindingBackIdArray, 3u)
// 8 x 8 pixel tiles for the iteration image passes.
VKC_CONSTANT(uint, kConsistentPairsImageGroupSize, 8u)

// The frame's limits (std430, 32 bytes); its view is the image frame's first (along z).
struct ConsistentPairsFrameGpu {
    float distanceThresholdPixels;  // the collision-point distance threshold (4.3, test 3), in the view's pixels
    uint resolution;      // pixels per side
    uint layerCount;      // front layers per iteration (<= kConsistentPairsMaxLayers)
    uint candidateSlotMask;  // the candidates' hash slots, a power of two, minus one
    uint pointCapacity;
    uint inconsistentImage; // 1: count inconsistent fragments per pixel too (keepImages)
    uint pad1;
    uint pad2;
};

// Push constants of every draw (16 bytes).
struct ConsistentPairsDrawPush {
    uint windowBase;      // global index of the window's first front layer (slot = index % layerCount)
    uint firstLayer;      // peel: 1 when there is no previous layer (the frame's first peel)
    uint pad0;
    uint pad1;
};

struct ConsistentPairsDecidePush {
    uint iteration;       // the iteration this pass enables or not (from the earlier ones' last peels)
    uint drawCount;       // draws (scene objects) per iteration
    uint imageGroups;     // workgroups per side of the iteration image passes (resolution / 8, rounded up)
    uint pad0;
};

// An iteration's own indirect commands, written by its decision pass: the peels' clear draw
// (a full-screen triangle) and the dispatch of the layer copies and the back-slot clear. An
// iteration that does not run gets no instance and no workgroup, so it costs no clear or copy.
struct ConsistentPairsIterationGpu {
    uint clearVertexCount;    // VkDrawIndirectCommand
    uint clearInstanceCount;
    uint clearFirstVertex;
    uint clearFirstInstance;
    uint groupsX;             // VkDispatchIndirectCommand
    uint groupsY;
    uint groupsZ;
    uint pad;
};

struct ConsistentPairsImagesPush {
    uint layer;           // copy: the layer slot the peel goes into
    uint resolution;
    uint layerCount;      // clear: slots of the back images
    uint pad;
};

// Per-frame counters. peelSamples[i] is the occlusion query of iteration i's last peel, copied
// on the GPU (vkCmdCopyQueryPoolResults) for the decision pass.
struct ConsistentPairsStatsGpu {
    uint iterations;          // iterations that ran (those the decision passes enabled)
    uint inconsistentPixels;  // back-face fragments whose nearest front face has another id (4.2)
    uint pad0;
    uint pad1;
    uint peelSamples[kConsistentPairsMaxIterations];
};

// A collision point (paper 4.3, Fig. 7): two surface samples on one pixel's ray, of different
// objects, t not deeper than p, within the threshold in depth. Normals are the world normals of
// the triangles hit, computed on the GPU.
struct ConsistentPairsPointGpu {
    float px;
    float py;
    float pz;
    uint objectP;
    float tx;
    float ty;
    float tz;
    uint objectT;
    float pnx;
    float pny;
    float pnz;
    uint flags;           // kConsistentPairsPointFrontP | kConsistentPairsPointFrontT
    float tnx;
    float tny;
    float tnz;
    uint pad;
};

VKC_NAMESPACE_END

#endif
