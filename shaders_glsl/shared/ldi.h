// Method `ldi` (paper 2, layered depth images by depth peeling): layouts, bindings and limits
// shared by shaders_glsl/ldi_* and passes/ldi/ldi_peel_passes.cpp, passes/ldi/ldi_passes.cpp,
// collision/ldi_detector*.cpp.
#ifndef VKC_SHARED_LDI_H
#define VKC_SHARED_LDI_H

#include "vertex_fetch.h"  // VertexSourceGpu, the vertex-buffer array

VKC_NAMESPACE_BEGIN

// The 8-bit stencil counts fragments with INCREMENT_AND_CLAMP: 255 means "255 or more", so at most
// 254 layers can be peeled with a count that is known to be exact.
VKC_CONSTANT(uint, kLdiMaxLayerCap, 254u)
// Sub-pixel steps per pixel the peeling draws snap vertices to (8 bits, as rasterizers and the CPU
// reference's kLdiSubpixelSteps do).
VKC_CONSTANT(uint, kLdiSubpixelSteps, 256u)
// One thread per atlas pixel, per LDI pixel, per indirect command or per point: 64 is a whole
// subgroup or two on every device.
VKC_CONSTANT(uint, kLdiGroupSize, 64u)
// The volume sums in fixed-order trees of 256: per workgroup of pixels in shared memory, then the
// workgroups' partial sums of one pair by one workgroup.
VKC_CONSTANT(uint, kLdiVolumeGroupSize, 256u)
// Inside-vertex tags: pair index << 1 | side, side 0 = a vertex of a inside b's LDI, 1 = of b in a's.
VKC_CONSTANT(uint, kLdiSideB, 1u)

// Draw set (graphics, set 0): tiles and the vertex buffers (kBindingVertexBuffers, in the compute
// set too). Set kLdiSetTileLayers: one tile's layers, a dynamic storage buffer whose offset selects
// the tile, so the draws of one pass write disjoint, declared ranges. It is a set of its own, bound
// per draw: lavapipe copies a whole set to apply dynamic offsets, vertex-buffer array included.
VKC_CONSTANT(uint, kLdiBindingTiles, 0u)
VKC_CONSTANT(uint, kLdiSetTileLayers, 1u)
VKC_CONSTANT(uint, kLdiBindingTileLayers, 2u)
// Compute set: tiles, then every per-frame buffer.
VKC_CONSTANT(uint, kLdiBindingLayers, 3u)
VKC_CONSTANT(uint, kLdiBindingStencilCounts, 4u)
VKC_CONSTANT(uint, kLdiBindingTileStats, 5u)
VKC_CONSTANT(uint, kLdiBindingCommands, 6u)
VKC_CONSTANT(uint, kLdiBindingPairResults, 7u)
VKC_CONSTANT(uint, kLdiBindingDepthImage, 8u)
VKC_CONSTANT(uint, kLdiBindingInsideList, 9u)
VKC_CONSTANT(uint, kLdiBindingVolumePartials, 10u)
VKC_CONSTANT(uint, kLdiBindingIndices, 11u)  // the frame's triangle indices (ldi_drawn_bound.comp)
VKC_CONSTANT(uint, kLdiBindingPointTests, 12u)  // LdiPointTestGpu per point test (ldi_points.comp)
// ldi_drawn_bound.comp only, laid out as the indices (ldi_drawn_bound_topology.h): per triangle side
// the vertex across it in the edge's other triangle, and per corner (a byte each) how many
// triangles hold its vertex.
VKC_CONSTANT(uint, kLdiBindingVerticesAcross, 13u)
VKC_CONSTANT(uint, kLdiBindingCornerValences, 14u)
VKC_CONSTANT(uint, kLdiNoVertexAcross, 0xffffffffu)  // the side's edge is not in exactly two triangles
// GLSL has no double atan: ldi_drawn_bound.comp's angles are float's, which Vulkan allows 4096 ulp
// of error (1e-3 radian near pi). Taken this much smaller, an angle never exceeds the true one; the
// bound grows by less than a thousandth of a half cylinder per side.
VKC_CONSTANT(float, kLdiDrawnBoundAngleMargin, 2.0e-3)

// The GPU-driven pair setup (ldi_pair_setup.glsl), a set of its own: the candidates in the
// broadphase's layout and the scene's objects in; a verdict per candidate out
// (ldi_pair_verdicts.comp), then from the pair selection (shared/pair_selection.h) every table the
// passes read (ldi_pair_setup.comp).
VKC_CONSTANT(uint, kLdiSetupGroupSize, 64u)
VKC_CONSTANT(uint, kLdiSetupBindingBounds, 0u)
VKC_CONSTANT(uint, kLdiSetupBindingCandidates, 1u)
VKC_CONSTANT(uint, kLdiSetupBindingSceneObjects, 2u)
VKC_CONSTANT(uint, kLdiSetupBindingParams, 3u)
VKC_CONSTANT(uint, kLdiSetupBindingTiles, 4u)
VKC_CONSTANT(uint, kLdiSetupBindingPointTests, 5u)
VKC_CONSTANT(uint, kLdiSetupBindingPointDispatches, 6u)
VKC_CONSTANT(uint, kLdiSetupBindingFirstDraws, 7u)
VKC_CONSTANT(uint, kLdiSetupBindingPairs, 8u)
VKC_CONSTANT(uint, kLdiSetupBindingVerdicts, 9u)        // uint per stored candidate (pair_selection.h)
VKC_CONSTANT(uint, kLdiSetupBindingSelection, 10u)      // PairSelectionStateGpu, read
VKC_CONSTANT(uint, kLdiSetupBindingSelectedPairs, 11u)  // uvec2[2 * maxPairs], the sorted half read

// LdiPairInfoGpu::flags
VKC_CONSTANT(uint, kLdiPairAFromMin, 1u)        // a's outside face is box.min[axis]
VKC_CONSTANT(uint, kLdiPairExtended, 2u)        // the VoI was extended (Fig. 2b)
VKC_CONSTANT(uint, kLdiPairBoundFromDrawn, 4u)  // ldi_drawn_bound.comp bounds the error, not tightBound

// One LDI: an object rendered into one res x res tile of the atlas (std430, 208 bytes).
struct LdiTileGpu {
    mat4 objectToClip;    // object space -> the VoI's orthographic clip space (x, y in [-1, 1], z in [0, 1])
    VertexSourceGpu vertices;  // the object's mesh
    uint entryIsFront;    // 1: a front-facing fragment (gl_FrontFacing) enters the object
    uint originX;         // atlas pixel of the tile's corner
    uint originY;
    uint indexCount;      // the object's triangle indices (3 per triangle)
    uint firstIndex;      // in the frame's index buffer
    float nearWorld;      // world coordinate along the ray axis of depth 0 (the outside face)
    float farWorld;       // ... of depth 1
    uint boundFromDrawn;  // 1: ldi_drawn_bound.comp bounds the pair's error from the drawn triangles
    // ldi_drawn_bound.comp only: object space -> world minus the VoI overlap's low corner, and the
    // triangles that count (their boxes meet [nearLo, nearHi] there: the overlap grown by the margin,
    // which nearLo.w holds).
    mat4 objectToLocal;
    vec4 nearLo;
    vec4 nearHi;
};
// One dispatch of ldi_points.comp: points read like vertices, tested against a tile (std430, 96 bytes).
struct LdiPointTestGpu {
    mat4 pointToTexel;    // the points' space -> the tile's texels (x, y in pixels, z depth in [0, 1])
    VertexSourceGpu points;  // an object's vertices or a caller's buffer
    uint tile;            // the LDI they are tested against
    uint tag;             // pair << 1 | side, written with each inside point
    uint unused0;
    uint unused1;
};

// A tested pair as the frame drew it (std430, 80 bytes): what results() decodes the pair with,
// written by the host (host candidates) or by ldi_pair_setup.comp (GPU-driven), read back.
struct LdiPairInfoGpu {
    uint a;
    uint b;
    uint axis;            // rays run along this world axis
    uint flags;           // kLdiPair*
    float box[6];         // the VoI rendered: min xyz, max xyz
    float overlap[6];     // the boxes' overlap
    double pixelArea;     // world units^2
    double tightBound;    // without kLdiPairBoundFromDrawn: the CPU's bound, before the float-depth term
};
// Before the pair infos (std430, 32 bytes): the setup's counts.
struct LdiSetupStateGpu {
    uint activePairs;     // pairs drawn: tiles 2p, 2p + 1 for p < activePairs
    uint overlappingPairs;  // candidates of closed solids whose boxes overlap with a volume
    uint openPairs;       // candidates with an object that is not a closed solid (not tested)
    uint firstOpenA;      // the smallest such pair
    uint firstOpenB;
    uint listedPairs;     // the candidate list's exact count ...
    uint listCapacity;    // ... and what it holds
    uint unused;
};

// Per scene object, for the GPU-driven setup (std430, 128 bytes).
struct LdiSceneObjectGpu {
    dvec4 row0;           // object -> world, rows 0..2 (row 3 is 0 0 0 1)
    dvec4 row1;
    dvec4 row2;
    VertexSourceGpu vertices;
    uint firstIndex;      // its mesh's triangles in the frame's index buffer
    uint indexCount;
    uint closed;          // 1: a closed, oriented solid (the only meshes ldi measures)
    uint unused;
};
struct LdiSetupParamsGpu {
    double candidateOrigin[3];  // the candidate boxes are world minus this
    uint objectCount;
    uint maxPairs;
    uint resolution;
    uint atlasColumns;
    uint maxGroupsX;      // maxComputeWorkGroupCount[0]: the point dispatches' grids fold into rows
    uint unused;
};

// What the peeling measured per tile (std430, 32 bytes). Reset each frame.
struct LdiTileStatsGpu {
    uint layers;          // n_max: the largest stencil count (clamped at 255)
    uint invalidPixels;   // pixels whose sorted layers do not alternate entry, leave, ... (paper §7)
    uint minX;            // bounds of the invalid pixels (tile pixels) ...
    uint minY;
    uint maxX;
    uint maxY;
    uint minDepthBits;    // ... and of their layers' depths (floatBitsToUint of depths in [0, 1])
    uint maxDepthBits;
};

// Per pair (std430, 32 bytes): the interval-length sum (world units), inside-vertex counts and,
// for a pair whose tiles say boundFromDrawn, each side's error-bound term from its drawn triangles.
struct LdiPairResultGpu {
    double lengthSum;     // sum over pixels of the overlap length of the inside intervals
    uint insideA;         // vertices of a inside b's LDI (exact)
    uint insideB;         // vertices of b inside a's LDI (exact)
    double drawnBoundA;   // ldi_drawn_bound.comp over a's tile (2p) ...
    double drawnBoundB;   // ... and b's (2p + 1)
};

// Inside-vertex list header (16 bytes), then uvec2 entries (tag, vertex index); count is exact.
struct LdiListHeader {
    uint count;
    uint capacity;
    uint pad0;
    uint pad1;
};

// Push constants of the peeling draws (vertex and fragment stages).
struct LdiDrawPush {
    uint tile;
    uint layer;           // 0-based: the fragment routed by stencil == layer stores layer `layer`
    uint resolution;
    uint layerCap;
};

// Push constants of every LDI compute shader (one layout for all of them, 32 bytes).
struct LdiComputePush {
    uint resolution;
    uint layerCap;
    uint tileCount;
    uint atlasColumns;    // tiles per atlas row
    uint atlasWidth;      // pixels: the stencil copy's row length
    uint pointTest;       // points: which LdiPointTestGpu
    uint pairCount;       // volume passes: pair slots (workgroups beyond it do nothing)
    uint unused;
};

VKC_NAMESPACE_END

#endif
