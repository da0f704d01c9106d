// Method `aabb-tree` (paper 4, Greß & Zachmann): exact intersecting triangle pairs per object pair
// by simultaneous AABB-tree traversal in compute. Trees are built on the CPU once per mesh and
// refit on the GPU when a mesh deforms; all object pairs traverse batched in the same dispatches,
// every level recorded up front (indirect dispatches, no CPU wait). Accepts open meshes and soups.
// Results come back frames later through a mapped read-back ring, like the broadphase.
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
#include <vector>

namespace vkc {

// Zero-initialised means defaults (the common part: detector.h; maxCandidatePairs 0 means 4096).
struct AabbTreeSettings : DetectorSettings {
    uint32_t nodePairCapacity = 0;      // 0: 2^19, at most 2^30. Entries per node-pair list (two
                                        // ping-pong lists, 16 B each). It grows:
    // 0: 512 MiB. After a frame whose lists overflowed, the frames recorded next have room for
    // what it saw (an eighth more, at least twice as many) while both lists stay within this many
    // bytes, one storage-buffer binding and 2^30 entries; past that the frame stays `truncated`
    // and a warning names this setting. A blocking run() grows and runs again at once. settings()
    // shows what it grew to. Set it to 1 to keep nodePairCapacity as given.
    uint64_t nodePairMemoryBudget = 0;
    uint32_t trianglePairCapacity = 0;  // 0: 2^16. Triangle pairs kept in the list (16 B each; only with keepTrianglePairList)
    bool keepTrianglePairList = false;  // false: counts only (PairResult::trianglePairList stays empty)
    bool disableTemporalCoherence = false;  // false: entrance levels from earlier frames (paper 4, section 5)
};

// What the paper read with occlusion queries, from the GPU's counters (per global level of the
// batched traversal: level 0 = roots of the deepest pair).
struct AabbTreeFrameDetails {
    uint32_t globalLevels = 0;
    std::vector<uint32_t> levelTested;    // box pairs tested per level
    std::vector<uint32_t> levelOverlaps;  // of those, overlapping
    uint64_t trianglePairCount = 0;       // exact, all pairs together
    bool nodePairOverflow = false;        // a node-pair list overflowed: counts may be too low
    uint32_t nodePairsNeeded = 0;         // then: the largest list count seen, a lower bound of the capacity needed
    uint32_t refitTrees = 0;              // trees refit on the GPU this frame
};

struct AabbTreeDetectorImpl;

// Lifetime: an AabbTreeDetector must not outlive its Context (run(scene) creates a broadphase on it).
class AabbTreeDetector {
public:
    using Settings = AabbTreeSettings;
    using Details = AabbTreeFrameDetails;

    // Errors: InvalidArgument for an invalid context or settings; MissingFeature when the device
    // lacks subgroup operations in compute; OutOfDeviceMemory naming the buffer.
    static Result<AabbTreeDetector> create(Context& context, const AabbTreeSettings& settings = {});
    AabbTreeDetector(AabbTreeDetector&&) noexcept;
    AabbTreeDetector& operator=(AabbTreeDetector&&) noexcept;
    ~AabbTreeDetector();

    // Records refit + traversal for `frame` (frames increase by one per call) into the host's
    // command buffer (outside a render pass), over `candidates` (detector.h). The world bounds are
    // checked like every detector's but not otherwise used: the traversal starts from each pair's
    // tree roots, so the answer does not depend on them. Builds (and caches) the tree of a mesh
    // seen for the first time (CPU, blocking for that call). Errors: those of detector.h (NotReady,
    // InvalidArgument for the candidates or the scene's size, Unsupported when the pairs read more
    // distinct vertex buffers than the device's storage-buffer limits allow); InvalidMesh from the tree build (naming the mesh).
    Status record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame);
    // GPU-driven, the way to use it in a renderer: the pairs `broadphase` recorded for the same
    // `frame` earlier in this command buffer are read and set up on the GPU, so they are this
    // frame's (a mesh deformed on the GPU included) and no CPU bounds are needed. Pairs past
    // maxCandidatePairs, or that the broadphase's pairCapacity cut, are left out and said in
    // results() (FrameResults::truncated, a warning with the exact count). Errors: as above, and
    // InvalidArgument when `broadphase` has not recorded `frame` or boxed another object count.
    Status record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame);
    // Add this to the vkQueueSubmit2 that carries the frame's command buffer.
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame`; never blocks. Colliding pairs only, with exact
    // trianglePairs counts; trianglePairList when kept (sorted); `truncated` when a capacity was
    // hit (then FrameResults::warnings says which). Also feeds the temporal-coherence state.
    Status results(uint64_t frame, FrameResults& out, AabbTreeFrameDetails* details = nullptr);

    // Blocking convenience for tools and tests: record over `pcs`, submit, wait, read.
    Result<FrameResults> run(const Scene& scene, const BroadphaseResults& pcs, AabbTreeFrameDetails* details = nullptr);
    // Same, GPU-driven after its own broadphase (settings.broadphase) in the same submit.
    Result<FrameResults> run(const Scene& scene, AabbTreeFrameDetails* details = nullptr);

    const AabbTreeSettings& settings() const;  // with defaults filled in

private:
    explicit AabbTreeDetector(std::unique_ptr<AabbTreeDetectorImpl> impl);
    std::unique_ptr<AabbTreeDetectorImpl> impl_;
};

}  // namespace vkc
