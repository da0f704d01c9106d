// GPU broadphase: world AABBs of every object computed in compute from its transformed vertices
// (so deforming meshes need nothing extra), then every object pair whose boxes overlap — the
// potentially colliding set (PCS) that the methods start from — found through a tree over the
// objects built on the GPU every frame (passes/broadphase/broadphase_passes.h): O(n log n).
// Recorded into the host's command buffer; results come back frames later through a mapped
// read-back ring, without waiting.
#pragma once

#include "vkcollide/context.h"
#include "vkcollide/scene.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <glm/vec3.hpp>

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vkc {

struct Aabb {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
};

// The world box of `mesh` placed by `transform`, from its CPU positions: computed in double and
// rounded outward to float, so it contains every transformed vertex (a conservative box for a
// method's view or volume of interest when no GPU broadphase ran).
Aabb placedMeshBounds(const MeshData& mesh, const glm::dmat4& transform);

struct ObjectPair {
    uint32_t a = 0;  // object indices, a < b
    uint32_t b = 0;
    auto operator<=>(const ObjectPair&) const = default;
};

// Zero-initialised means defaults.
struct BroadphaseSettings {
    float margin = 0.0f;          // world units added to every box before the overlap test, >= 0
    // Read-back slots are sized for this many objects. 0: follows the scene, from 4096: a larger
    // scene grows it to the next power of two at record(), once every frame recorded so far has
    // completed (NotReady naming the frame until then; earlier frames' results are then gone).
    uint32_t maxObjects = 0;
    // More overlapping pairs set `truncated` (the count stays exact). 0: follows the pairs, from
    // 65536: a truncated frame's count grows it (next power of two, within one storage-buffer
    // binding) at the next record() that finds every frame completed; run() re-runs with it.
    uint32_t pairCapacity = 0;
    uint32_t framesInFlight = 0;  // 0: 2. Frames recorded but not yet read back, at most
    // true: frames write no pass timestamps and BroadphaseResults::gpuTimingsMs stays empty. With
    // timings on, the GPU copies them into read-back memory, so results() still never waits.
    bool disableGpuTimings = false;
};

struct BroadphaseResults {
    std::vector<Aabb> worldBounds;         // per object
    std::vector<ObjectPair> pairs;         // sorted; at most pairCapacity
    uint32_t pairCount = 0;                // exact, even when truncated
    bool truncated = false;                // pairCount > pairCapacity: grow and retry
    std::map<std::string, double> gpuTimingsMs;  // per pass label
};

struct BroadphaseImpl;

class Broadphase {
public:
    using Settings = BroadphaseSettings;
    using Results = BroadphaseResults;

    // Errors: InvalidArgument for an invalid context or settings (margin negative or not finite,
    // maxObjects above the device's limit: its workgroups in x times 64, and 48 bytes of tree per
    // object within one storage-buffer binding: 2.8 million on lavapipe); OutOfDeviceMemory naming
    // the buffer.
    static Result<Broadphase> create(Context& context, const BroadphaseSettings& settings = {});
    Broadphase(Broadphase&&) noexcept;
    Broadphase& operator=(Broadphase&&) noexcept;
    ~Broadphase();

    // Records the broadphase for `frame` (frames increase by one per call) into the host's command
    // buffer, which must be outside a render pass. Errors: NotReady when `frame` would reuse a slot
    // whose frame the GPU has not finished (more than framesInFlight frames in flight);
    // InvalidArgument when the scene has more than a set maxObjects objects ("broadphase: the scene
    // has N objects, more than BroadphaseSettings::maxObjects (L)") or than the device's limit;
    // NotReady when maxObjects follows the scene and must grow while frames are in flight; Unsupported when the objects read
    // more distinct vertex buffers than the device's storage-buffer limits allow (about a million
    // on lavapipe and desktop GPUs; the message names the limit). A refused frame holds no slot.
    Status record(VkCommandBuffer cmd, const Scene& scene, uint64_t frame);
    // Add this to the vkQueueSubmit2 that carries the frame's command buffer: it tells results()
    // when the GPU is done, so results() never waits.
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame` (also before its completionSignal was taken); never
    // blocks or asks the driver for query results. InvalidArgument for a frame never recorded, or
    // whose slot a later frame has been recorded into.
    Status results(uint64_t frame, BroadphaseResults& out);

    // Blocking convenience for tools and tests: record, submit, wait, read.
    Result<BroadphaseResults> run(const Scene& scene);

    const BroadphaseSettings& settings() const;  // in effect: defaults filled in, as grown

private:
    friend struct BroadphaseAccess;  // the detectors read a recorded frame's buffers (GPU-driven candidates)
    explicit Broadphase(std::unique_ptr<BroadphaseImpl> impl);
    std::unique_ptr<BroadphaseImpl> impl_;
};

}  // namespace vkc
