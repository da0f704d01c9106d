// Method `consistent-pairs` (paper 3, Jang, Jeong & Han): collision detection among closed objects
// of a whole scene at once, in image space. Along every ray of one orthographic view over the
// potentially colliding set, front and back faces of non-colliding closed objects alternate per
// object: the front face immediately in front of a back face belongs to the same object. Front
// faces are depth-peeled with object ids, a few layers per iteration (section 4.1); each back-face
// fragment is compared with the nearest front face in front of it, and a different id is a
// colliding pair (4.2). A determination pass over all faces writes collision points where two
// surfaces of different objects lie within a threshold on one ray (4.3), with the world normals of
// both triangles hit, computed on the GPU from the triangles' planes. Iterations continue from the previous one's last layer while
// the last peel's occlusion query counts fragments (5); the decision is taken on the GPU, so the
// CPU never waits. Rendering is O(N) in the objects drawn, not per pair. Precision is one pixel of
// the view, which is fitted on the GPU from the frame's candidate pairs and boxes; they also choose
// the objects drawn (indirect draws: no instance for an object in no pair). Results come back
// frames later through a mapped read-back ring, like the broadphase.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/detector.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace vkc {

// Zero-initialised means defaults (the common part: detector.h). GPU memory per frame in flight,
// R = resolution, L = layers per iteration: R^2 * (20 + 28 L) bytes of images (R = 1024, L = 3:
// 104 MiB), 64 B per point of capacity (4 MiB at the default), 8.25 B per candidate pair of
// capacity for their hash slots and flags (the broadphase's pairCapacity, or maxCandidatePairs),
// and 20 B * maxObjects * maxIterations of indirect draws (640 KiB).
struct ConsistentPairsSettings : DetectorSettings {
    uint32_t resolution = 0;          // 0: 1024. Pixels per side of the square view (the paper's default)
    uint32_t layersPerIteration = 0;  // 0: 3 (the paper's three textures). Front layers an iteration
                                      // keeps, 2..8; the next iteration starts from the last of them
    uint32_t maxIterations = 0;       // 0: 8. Iterations recorded per frame, 1..64; the GPU skips those
                                      // not needed. Together: 1 + (L - 1) * maxIterations front layers
    float distanceThresholdPixels = 0;  // 0: 1.5. Collision points join two surfaces of different objects
                                        // closer than this along a ray (paper 4.3, test 3), in pixels
    float regionPaddingPixels = 0;    // 0: 2. The view grows by this many pixels on each side
    uint32_t pointCapacity = 0;       // 0: 65536. Collision points kept (64 B each); the count stays exact
    bool keepImages = false;          // read back the inconsistent fragments per pixel
                                      // (ConsistentPairsFrameDetails::inconsistentImage): R^2 * 4 B more
};

// One collision point as the determination pass wrote it (paper 4.3, Fig. 6): two surface samples
// of different objects on one ray, t not deeper than p (along the view's +z), closer than the
// threshold. The four cases are the front/back flags: front/front, back/front (p back, t front),
// front/back (p front, t back) and back/back.
struct ConsistentPairsPoint {
    uint32_t objectP = 0;  // the deeper sample's object
    uint32_t objectT = 0;  // the nearer (or equally deep) sample's object
    bool frontP = false;   // p lies on a front face (else a back face)
    bool frontT = false;
    glm::vec3 p{0.0f}, t{0.0f};              // world positions on each object's surface
    glm::vec3 normalP{0.0f}, normalT{0.0f};  // world normals of the triangles hit (unit length)
};

// What the paper reads with occlusion queries and counters, per frame.
struct ConsistentPairsFrameDetails {
    uint32_t iterationsRun = 0;               // iterations the GPU ran (the first always runs when drawing)
    bool iterationsTruncated = false;         // maxIterations ran and front faces remained: a warning,
                                              // and FrameResults::truncated
    std::vector<uint64_t> fragmentsPerPeel;   // occlusion query per front-layer peel, in layer order
    uint32_t inconsistentPixels = 0;          // back-face fragments with another object in front (4.2)
    uint32_t drawnObjects = 0;                // objects of the candidate pairs, drawn in every pass
    uint32_t pointCount = 0;                  // collision points, exact even past pointCapacity
    bool pointsTruncated = false;
    std::vector<ConsistentPairsPoint> points;  // the stored points (at most pointCapacity)
    float pixelSize = 0.0f;                   // world units: the larger pixel side of the view
    float distanceThreshold = 0.0f;           // world units (distanceThresholdPixels * pixelSize)
    // Only with keepImages: per pixel of the view (resolution^2, row-major), the back-face fragments
    // found inconsistent there over every iteration; they sum to inconsistentPixels.
    std::vector<uint32_t> inconsistentImage;
};

struct ConsistentPairsDetectorImpl;

// Lifetime: a ConsistentPairsDetector must not outlive its Context (run(scene) creates a broadphase on it).
class ConsistentPairsDetector {
public:
    using Settings = ConsistentPairsSettings;
    using Details = ConsistentPairsFrameDetails;

    // Errors: InvalidArgument for an invalid context or settings; OutOfDeviceMemory naming the
    // buffer or image.
    static Result<ConsistentPairsDetector> create(Context& context, const ConsistentPairsSettings& settings = {});
    ConsistentPairsDetector(ConsistentPairsDetector&&) noexcept;
    ConsistentPairsDetector& operator=(ConsistentPairsDetector&&) noexcept;
    ~ConsistentPairsDetector();

    // Records the method for `frame` (frames increase by one per call) into the host's command
    // buffer (outside a render pass), over `candidates` (detector.h; uploaded and then treated as
    // the broadphase's pairs are: the view covers the overlaps of the candidates' boxes, depth all
    // drawn objects). Uploads every mesh's triangle indices when it first sees the scene (or a
    // mesh's shape changes). Every scene object's draws are recorded (record time follows the
    // scene's object count). Errors: those of detector.h (NotReady, InvalidArgument for the
    // candidates or the scene's size, Unsupported), and InvalidMesh when an object of a candidate
    // pair is not a closed, oriented solid (the method needs closed solids).
    Status record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame);
    // GPU-driven, the way to use it in a renderer: the pairs and boxes `broadphase` recorded for the
    // same frame earlier in `cmd` (or an earlier command buffer of the same submit) are read on the
    // GPU, so nothing on the CPU is stale or needed. An object of a candidate pair that is not a
    // closed solid is not drawn: its pairs are not tested, the frame says `truncated` with a warning
    // naming its mesh. Pairs past maxCandidatePairs: the pair list keeps the first ones, counts stay
    // exact, `truncated`. InvalidArgument when `broadphase` has not recorded `frame` or boxed
    // another object count.
    Status record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame);
    // Add this to the vkQueueSubmit2 that carries the frame's command buffer.
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame`; never blocks. Pairs carry their collision points
    // (two per determination point: the sample on each surface) with the triangles' normals,
    // `truncated` when the point list was full (a warning says so). Iterations exhausted while
    // front faces remained is a warning too. `out.truncated` is set when either happened (or the
    // pair list was full): pairs behind the last tested layer may be missing, so `colliding` false
    // is not a proof of no collision; raise maxIterations (or pointCapacity) and run again.
    Status results(uint64_t frame, FrameResults& out, ConsistentPairsFrameDetails* details = nullptr);

    // Blocking convenience for tools and tests: record over `pcs`, submit, wait, read.
    Result<FrameResults> run(const Scene& scene, const BroadphaseResults& pcs,
                             ConsistentPairsFrameDetails* details = nullptr);
    // GPU-driven: its own broadphase (settings.broadphase) and the method in one submit; more
    // candidate pairs than maxCandidatePairs are refused once counted, as run(scene, pcs) refuses them.
    Result<FrameResults> run(const Scene& scene, ConsistentPairsFrameDetails* details = nullptr);

    const ConsistentPairsSettings& settings() const;  // with defaults filled in

private:
    explicit ConsistentPairsDetector(std::unique_ptr<ConsistentPairsDetectorImpl> impl);
    std::unique_ptr<ConsistentPairsDetectorImpl> impl_;
};

}  // namespace vkc
