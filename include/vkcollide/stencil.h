// Method `stencil` (paper 1, Knott & Pai, CInDeR): interference of closed meshes by image-space ray
// casting. Edges of the potentially colliding objects write depth; one two-sided stencil draw of
// their triangles counts, per pixel, front minus back faces in front of the nearest edge point;
// a positive count is an edge point inside another solid. Occlusion queries give the boolean; id
// images, scanned and compacted on the GPU, give the pairs, the world-space edge points and the
// penetrating / penetrated objects. Precision is one pixel of the orthographic view fitted
// to the potentially colliding set's overlap region (section 6.5), fitted on the GPU from the
// frame's candidate pairs and boxes, which also choose the objects drawn (indirect draws: no
// instance for an object in no pair). Results come back frames later through a mapped read-back
// ring, like the broadphase.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/detector.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace vkc {

// Zero-initialised means defaults (the common part: detector.h). The candidates' flags take 8.25 B
// per candidate pair of capacity (their hash slots and two bits).
struct StencilSettings : DetectorSettings {
    uint32_t resolution = 0;      // 0: 512. Pixels per side of each view's square depth-stencil image
    uint32_t views = 0;           // 0: 3 (orthogonal, along z, x, y); 1: along z only. Fig. 6 of the
                                  // paper: an interference hidden behind edges in one view shows in another
    float edgeOffsetPixels = 0;   // 0: 0.5. Edges move this many pixels (of the coarsest view axis)
                                  // outward along vertex normals (section 6.3), so that an edge lying
                                  // on another object's face is seen; objects closer than about this
                                  // many pixels can therefore be reported as a pair
    float regionPaddingPixels = 0;  // 0: 2. The fitted view grows by this many pixels on each side
    uint32_t pointCapacity = 0;   // 0: 16384. Interfering edge points kept (16 B each); count stays exact
    bool keepImages = false;      // read back each view's signed counts (StencilFrameDetails::counts):
                                  // views x resolution^2 bytes more per frame in flight
};

// What the paper reads with occlusion queries, per frame (views in the order z, x, y), and what
// the id images held of each object.
struct StencilFrameDetails {
    bool interference = false;                  // any view had a pixel with signed stencil > 0 (6.1)
    std::vector<uint64_t> interferingSamples;   // per view: samples with signed stencil > 0
    // Per view: samples with signed stencil < 0: an open mesh (a warning names it), or a few from
    // rounding where closed meshes' faces meet an edge point's depth (no warning).
    std::vector<uint64_t> negativeSamples;
    // Objects whose id image A holds somewhere (an edge passed the stencil test, 5.1), and B (an
    // edge point inside it by its own recount, 5.2; one object per pixel: the last one drawn).
    std::vector<uint32_t> penetratingObjects;
    std::vector<uint32_t> penetratedObjects;
    uint32_t drawnObjects = 0;                  // objects of the candidate pairs, drawn in each view
    uint32_t pointCount = 0;                    // exact, even past pointCapacity
    bool pointsTruncated = false;
    float pixelSize = 0.0f;                     // world units: the coarsest pixel side over the views
    // Candidate pairs not reported: no edge point of one was seen inside the other. Either apart,
    // or interfering with every interfering edge obscured by nearer edges or lying on the other's
    // faces (paper 1, 6.4); the method cannot tell which (also a warning in FrameResults).
    std::vector<ObjectPair> undecidedPairs;
    // Only with keepImages: per view, the signed count of each pixel as the count pass left it
    // (resolution^2, row-major in the view's image): front minus back faces in front of the nearest
    // edge point, i.e. how many closed solids contain it; 0 where no edge was drawn, negative where
    // an open mesh was drawn.
    std::vector<std::vector<int8_t>> counts;
};

struct StencilDetectorImpl;

// Lifetime: a StencilDetector must not outlive its Context (run(scene) creates a broadphase on it).
class StencilDetector {
public:
    using Settings = StencilSettings;
    using Details = StencilFrameDetails;

    // Errors: InvalidArgument for an invalid context or settings; MissingFeature when no
    // depth-stencil format with 8 stencil bits can be rendered; OutOfDeviceMemory naming the buffer.
    static Result<StencilDetector> create(Context& context, const StencilSettings& settings = {});
    StencilDetector(StencilDetector&&) noexcept;
    StencilDetector& operator=(StencilDetector&&) noexcept;
    ~StencilDetector();

    // Records the method for `frame` (frames increase by one per call) into the host's command
    // buffer (outside a render pass), over `candidates` (detector.h; uploaded and then treated as
    // the broadphase's pairs are). Open meshes are drawn (the scene may have been created
    // with kObjectSpaceMethodRequirements) and reported as warnings. Builds the edge list and
    // vertex adjacency of a mesh seen for the first time (CPU, once). Every scene object's draws
    // are recorded (record time follows the scene's object count). Errors: those of detector.h
    // (NotReady, InvalidArgument for the candidates or the scene's size, Unsupported).
    Status record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame);
    // GPU-driven, the way to use it in a renderer: the pairs and boxes `broadphase` recorded for the
    // same frame earlier in `cmd` (or an earlier command buffer of the same submit) are read on the
    // GPU, so nothing on the CPU is stale or needed. Pairs past maxCandidatePairs: the pair lists
    // keep the first maxCandidatePairs, counts stay exact and the frame says `truncated`.
    // InvalidArgument when `broadphase` has not recorded `frame` or boxed another object count.
    Status record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame);
    // Add this to the vkQueueSubmit2 that carries the frame's command buffer.
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame`; never blocks. `colliding` is the occlusion-query
    // boolean; pairs carry penetrating/penetrated and their interfering edge points (`truncated`
    // when the point list was full; then a warning says so). Negative signed stencil (an open
    // mesh, paper section 4.1) is a warning naming the open meshes drawn.
    Status results(uint64_t frame, FrameResults& out, StencilFrameDetails* details = nullptr);

    // Blocking convenience for tools and tests: record over `pcs`, submit, wait, read.
    Result<FrameResults> run(const Scene& scene, const BroadphaseResults& pcs, StencilFrameDetails* details = nullptr);
    // GPU-driven: its own broadphase (settings.broadphase) and the method in one submit; more
    // candidate pairs than maxCandidatePairs are refused once counted, as run(scene, pcs) refuses them.
    Result<FrameResults> run(const Scene& scene, StencilFrameDetails* details = nullptr);

    const StencilSettings& settings() const;  // with defaults filled in

private:
    explicit StencilDetector(std::unique_ptr<StencilDetectorImpl> impl);
    std::unique_ptr<StencilDetectorImpl> impl_;
};

}  // namespace vkc
