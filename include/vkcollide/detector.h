// The shape every detector (stencil, ldi, consistent-pairs, aabb-tree, ebpi) shares: settings with a
// common part, one candidate-set argument, and one frame protocol:
//   record(cmd, scene, candidates, frame)  into the host's command buffer (frames increase by one)
//   completionSignal(frame)                added to the vkQueueSubmit2 that carries that buffer
//   results(frame, out, details)           NotReady until the GPU finished `frame`; never blocks
//                                          (reads memory the GPU wrote, query results included)
//   run(scene, pcs, details) / run(scene, details)   blocking conveniences for tools and tests
// Errors every detector returns alike, with the same wording (the method's name first):
//   NotReady         record() while frame - framesInFlight has not finished on the GPU (its slot
//                    is busy); results() before the frame's signal arrived (or was handed out)
//   InvalidArgument  record() for a frame at or before one whose completion signal was handed out
//                    (a timeline value cannot be signalled twice; run() numbers its frames after
//                    the host's); "<method>: candidate pair (a, b) names an unknown object";
//                    "<method>: N world bounds for M objects" (bounds missing for an object);
//                    "<method>: N candidate pairs, more than <Settings>::maxCandidatePairs (L)";
//                    "<method>: the scene has N objects, more than <Settings>::maxObjects (L)";
//                    settings out of range in create(), naming the field; results() for a frame
//                    never recorded, or whose slot a later frame has been recorded into
//   InvalidMesh      "<method>: object 3 "o3" (mesh "x") is not a closed, manifold, outward-oriented
//                    solid (open (2 boundary edges))", from a method that needs closed solids
//   Unsupported      the drawn objects read more distinct vertex buffers than the device's
//                    storage-buffer limits allow (the message names the limit)
// A refused record() holds no frame slot: the host may record the same frame number again.
//
// What record() does to the host's command buffer and what the host owes it (the broadphase's
// record() alike):
//   left bound      compute (and, for the image-space methods, graphics) pipelines, descriptor
//                   sets and push constants of its own passes; no render pass stays open and no
//                   dynamic state is relied on afterwards: rebind whatever you draw with next.
//   allocates       a frame slot's buffers and images the first time the slot is recorded and
//                   again only when a frame needs more than the slot holds (blocking allocation,
//                   never a GPU wait); trees and index tables when a mesh is first seen.
//   barriers        between its own passes, from its read-back copies to the host, and before its
//                   first read of each of your vertex buffers one from every earlier command's
//                   writes (ALL_COMMANDS, MEMORY_WRITE); none after its last read.
//   you synchronise order your next write to a vertex buffer after this frame's reads of it (an
//                   execution dependency from ALL_COMMANDS to your write stage); your own later
//                   reads of what you wrote (draws) need your own barrier, as always.
//                   tools/examples/mesh_deformer.cpp does both.
#pragma once

#include "vkcollide/broadphase.h"

#include <cstdint>
#include <span>

namespace vkc {

// The settings part every detector shares (each method's settings derive from it). Zero means the
// default, filled in by create() and visible in the detector's settings().
struct DetectorSettings {
    uint32_t framesInFlight = 0;     // 0: 2. Frames recorded but not yet read back, at most
    uint32_t maxObjects = 0;         // 0: 4096. Objects in the scene, at most 65535 for stencil
                                     // (16-bit ids in its points); aabb-tree, ebpi, ldi and
                                     // consistent-pairs: as many as their per-object table (160,
                                     // 192, 128 bytes, and 20 per iteration of draws) holds within
                                     // one storage-buffer binding (838,860, 699,050, 1,048,576 and
                                     // 838,860 at 8 iterations on lavapipe's 128 MiB)
    uint32_t maxCandidatePairs = 0;  // 0: the method's default (stencil, consistent-pairs, ldi and ebpi 16384,
                                     // aabb-tree 4096). Unique candidate pairs one frame may test
    // true: frames write no pass timestamps and FrameResults::gpuTimingsMs stays empty (run(scene)'s
    // own broadphase writes none either). With timings on, the GPU copies them into read-back
    // memory, so results() still never waits.
    bool disableGpuTimings = false;
    BroadphaseSettings broadphase;   // for run(scene), which runs its own GPU broadphase first
};

// The potentially colliding pairs a detector tests in one frame, with every object's world box
// (usually the broadphase's, for the frame: a BroadphaseResults converts implicitly). A pair with
// a == b is ignored, b < a is swapped, repeats count once. `worldBounds` must hold a box for every
// object of the scene (InvalidArgument otherwise); the image-space methods fit their views to them.
// The spans must stay valid for the record() call only.
struct CandidateSet {
    std::span<const ObjectPair> pairs;
    std::span<const Aabb> worldBounds;

    CandidateSet() = default;
    CandidateSet(std::span<const ObjectPair> pairs, std::span<const Aabb> worldBounds)
        : pairs(pairs), worldBounds(worldBounds) {}
    CandidateSet(const BroadphaseResults& pcs) : pairs(pcs.pairs), worldBounds(pcs.worldBounds) {}  // NOLINT: implicit
};

}  // namespace vkc
