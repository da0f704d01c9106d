// Method `ebpi` (paper 5, Wang, Faure & Pai, "Adaptive Image-based Intersection Volume"): the
// intersection volume of each candidate pair within a tolerance the caller asks for, and its
// gradient per vertex, by adaptive ray casting. Per pair, three orthogonal ray directions turned
// away from the meshes' faces (Sec. 4.4); per direction, every mesh edge's error-bound polynomial
// rasterized into the Error Bound Polynomial Image (EBPI, Sec. 4.1-4.2), rays where they cut the
// bound most until it meets the tolerance (Sec. 4.3), every hit of every ray (one of three backends),
// then Eq. 1 (volume) and Eq. 2 (gradient). One frame graph, GPU-driven from the EBPI to the sums:
// the ray count never comes back to the host inside a frame (the casting and volume passes are
// dispatched indirectly from the ray generator's counters).
//
// What the bound covers: the midpoint-rule error of every ray tile, from the EBPI of both meshes'
// edges inside the pair's overlap box (made conservative where the paper's formulas are not:
// collision/ebpi/README.md) and of the transient edges where the two surfaces cross (Sec. 5,
// computed exactly on the GPU from the drawn vertices: an aabb-tree traversal of the pair's
// meshes gives the candidate triangle pairs, collision/ebpi/ebpi_transient_edges.h the segments),
// plus the fixed-point and float rounding. This holds for meshes the host deforms in its own
// vertex buffer too: nothing in the bound comes from CPU positions except the broadphase boxes.
#pragma once

#include "vkcollide/broadphase.h"
#include "vkcollide/context.h"
#include "vkcollide/detector.h"
#include "vkcollide/results.h"
#include "vkcollide/scene.h"
#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace vkc {

enum class EbpiRayBackendChoice : uint32_t {
    Default,             // the fastest the device runs, as measured: compute on a CPU device (lavapipe);
                         // on a GPU the first the context enabled: ray queries (kFeatureSetRayQuery),
                         // ray-tracing pipelines (kFeatureSetRayTracingPipeline), else compute
    Compute,             // watertight compute traversal: any Vulkan 1.2 device, RenderDoc-capturable
    RayQuery,            // VK_KHR_ray_query: a BLAS of grown triangle boxes per object, a TLAS per frame;
                         // MissingFeature without it
    RayTracingPipeline,  // VK_KHR_ray_tracing_pipeline over the same structures (GPUs without ray
                         // queries, such as NVIDIA's data-centre parts); MissingFeature without it
};

// "default", "compute", "ray-query", "ray-tracing-pipeline": the CLI's --ray-backend values.
const char* ebpiRayBackendName(EbpiRayBackendChoice backend);

enum class EbpiDirectionChoice : uint32_t {
    Optimized,  // Eq. 12 minimised on the GPU over the pair's area-weighted normals as drawn, from the
                // pair's last axes (EbpiPairDetails::directions of the latest frame read back)
    WorldAxes,  // x, y, z
};

// Zero-initialised means defaults (the common part: detector.h), except `tolerance`, which the
// caller must set. Memory per frame in flight: 320 B per EBPI pixel (3 x maxPairs x resolution^2:
// 15 MiB at the defaults), 96 B per tile of its pyramid, 104 B per ray (maxRays) and 32 B per hit
// slot (maxRays x hitCapacity: 64 MiB at the defaults), the hit slots at most one storage-buffer
// binding: rays whose hits would pass it are cast and summed in chunks, one after the other, in
// the same frame. create() refuses settings whose other buffers pass one binding (lavapipe:
// 128 MiB), naming the fields to lower.
// Every backend decides hits with the same watertight test (shaders_glsl/shared/ebpi_trace.h), so
// they give the same volumes bit for bit.
struct EbpiSettings : DetectorSettings {
    double tolerance = 0.0;         // absolute volume error allowed per pair (world units cubed), > 0
    uint32_t resolution = 0;        // 0: 64. EBPI pixels along the longer side of each view's window
    uint32_t maxSplit = 0;          // 0: 64, at most 64. Rays per side of one EBPI pixel, at most
    uint32_t maxRays = 0;           // 0: 2^17. Rays per frame, all pairs and directions. Pairs are
                                    // admitted in order while their rays fit what is left; a pair that
                                    // does not fit is `truncated` (the exact count is reported), and
                                    // later pairs that fit are still cast. It grows (below).
    uint32_t hitCapacity = 0;       // 0: 16. Hits kept per ray; a ray with more adds nothing, and
                                    // its pair is `truncated`. It grows (below).
    // 0: 512 MiB. After a frame that needed more rays than maxRays, or more hit slots than
    // hitCapacity, the frames recorded next have room for them (an eighth more rays; twice the slots),
    // as long as their rays and one chunk of hit slots (104 B per ray, 32 B per hit slot)
    // stay within this many bytes, a ray buffer within one binding and maxRays x hitCapacity within
    // 2^26; past that the pairs stay `truncated` and a warning names this setting. settings() shows
    // what they grew to. Set it to 1 to keep maxRays and hitCapacity as given.
    uint64_t rayMemoryBudget = 0;
    uint32_t maxPairs = 0;          // 0: 4. Pairs with overlapping boxes one frame tests
    uint32_t maxGradientVertices = 0;  // 0: 2^18. Vertices of the tested pairs' objects, summed
    uint32_t trianglePairCapacity = 0;  // 0: 2^18. Triangle pairs with overlapping boxes, all tested
                                        // pairs together, among which the GPU finds where the surfaces
                                        // cross (16 B each); past it every pair of the frame is
                                        // `truncated` (the exact count is in EbpiFrameDetails)
    uint32_t nodePairCapacity = 0;      // 0: 2^19. Entries per node-pair list of that traversal (two
                                        // lists, 16 B each); an overflow truncates every pair
    EbpiRayBackendChoice rayBackend = EbpiRayBackendChoice::Default;
    EbpiDirectionChoice directions = EbpiDirectionChoice::Optimized;
    // true: leave the creases where the surfaces cross out of the EBPI (paper 5's Fig. 10 "without
    // refinement"). The bound then no longer holds: for comparisons only.
    bool omitTransientEdges = false;
    // Read back each view's EBPI and ray distribution (EbpiPairDetails::images): 128 B per EBPI
    // pixel and 24 B per pyramid tile of read-back memory per frame in flight.
    bool keepImages = false;
};

// One view of a pair as pictures (paper 5's Figs 6 and 8), row-major, width x height pixels.
struct EbpiViewImage {
    uint32_t width = 0, height = 0;
    std::vector<float> bound;  // the EBPI's bound of each pixel sampled by one ray at its centre (volume)
    std::vector<float> rays;   // rays per pixel: each tile's rays spread over the pixels it covers
};

struct EbpiVertexGradientEntry {
    uint32_t vertex = 0;
    glm::dvec3 gradient{0.0};  // dV / d(world position of the vertex)
};

// Per tested pair (every candidate pair whose world boxes overlap with a volume), in candidate order.
struct EbpiPairDetails {
    uint32_t a = 0, b = 0;
    std::array<glm::dvec3, 3> directions{};  // the three ray directions (world, orthonormal)
    std::array<double, 3> volumePerDirection{};
    std::array<double, 3> boundPerDirection{};  // each direction's achieved EBPI bound + rounding
    double volume = 0.0;                        // mean of the three directions' estimates
    double volumeErrorBound = 0.0;              // mean of their bounds: <= tolerance unless truncated
    double floatRoundingBound = 0.0;            // what float hits and ray ends may round (largest over
                                                // the views): no tolerance at or below it can be met
    uint64_t rays = 0;                          // this pair's rays, all three directions (not cast
                                                // when they did not fit maxRays: truncated)
    uint32_t oddRays = 0;                       // rays whose hits do not enter and leave in turn
    uint32_t truncatedRays = 0;                 // rays with more hits than hitCapacity
    bool boundNotMet = false;                   // even maxSplit x maxSplit rays in every pixel miss the tolerance
    bool truncated = false;                     // the bound does not hold (any reason above, or the
                                                // frame's maxRays, or a fixed-point overflow)
    bool transientEdgesCovered = false;         // false only with omitTransientEdges
    std::vector<EbpiVertexGradientEntry> gradientA;  // vertices of a with a non-zero gradient
    std::vector<EbpiVertexGradientEntry> gradientB;
    std::array<EbpiViewImage, 3> images;             // per direction; only with keepImages
};

// A frame's GPU time per stage, milliseconds: paper 5's Table 1 columns, each the sum of its
// passes' timestamps (FrameResults::gpuTimingsMs has them pass by pass; all zero when timings are
// off). BVH is zero on the compute backend, which builds none.
struct EbpiStageTimings {
    double directions = 0.0;  // the pairs' setup from the candidates, normal histograms and Eq. 12
                              // (Sec. 4.4; the paper runs it on the CPU)
    double image = 0.0;     // the EBPI: edge terms, transient-edge terms (with the aabb-tree traversal
                            // that finds their triangle pairs), rasterization ("raster")
    double rays = 0.0;      // pyramid, per-tile splits, scan, ray list
    double bvh = 0.0;       // triangle boxes, BLAS and TLAS builds
    double casting = 0.0;   // every hit of every ray, sorted
    double volume = 0.0;    // Eq. 1 and Eq. 2 sums
    double readback = 0.0;  // the copy into the read-back memory

    EbpiStageTimings& operator+=(const EbpiStageTimings& o) {
        directions += o.directions;
        image += o.image;
        rays += o.rays;
        bvh += o.bvh;
        casting += o.casting;
        volume += o.volume;
        readback += o.readback;
        return *this;
    }
};

struct EbpiFrameDetails {
    std::vector<EbpiPairDetails> pairs;
    uint64_t totalRays = 0;   // exact, even past maxRays
    bool raysTruncated = false;  // some pair's rays did not fit maxRays and were not cast
    uint64_t trianglePairs = 0;  // triangle pairs with overlapping boxes (exact; see trianglePairCapacity)
    uint64_t nodePairsNeeded = 0;  // 0, or a node-pair list's entries past nodePairCapacity
    EbpiStageTimings stageTimingsMs;
};

struct EbpiDetectorImpl;

// Lifetime: an EbpiDetector must not outlive its Context (run(scene) creates a broadphase on it).
class EbpiDetector {
public:
    using Settings = EbpiSettings;
    using Details = EbpiFrameDetails;

    // Errors: InvalidArgument for an invalid context or settings (naming the field); MissingFeature
    // for the ray-query backend on a device without it (and for the method's feature set).
    static Result<EbpiDetector> create(Context& context, const EbpiSettings& settings);
    EbpiDetector(EbpiDetector&&) noexcept;
    EbpiDetector& operator=(EbpiDetector&&) noexcept;
    ~EbpiDetector();

    // Records the method for `frame` over `candidates` (detector.h). Errors: those of detector.h,
    // InvalidArgument for more overlapping pairs than maxPairs, InvalidMesh for a mesh that is not a
    // closed, oriented solid.
    Status record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame);
    // GPU-driven, the way to use it in a renderer: the pairs and world boxes `broadphase` recorded for
    // the same `frame` earlier in the same command buffer (or an earlier one of the same submit),
    // read on the GPU. The GPU chooses the pairs (boxes overlapping with a volume, in (a, b) order)
    // and sets up their tables; the host supplies no bounds. What the frame cannot test is reported
    // by results() as `truncated` with a warning: pairs past maxPairs or maxGradientVertices, pairs
    // with an object that is not a closed solid, pairs past the broadphase's list capacity.
    // Memory: every frame is sized for maxPairs pairs (the hardware backends: 2 x maxPairs BLASes of
    // as many boxes as the scene's largest closed mesh has triangles). Errors: those of detector.h;
    // InvalidArgument when `broadphase` has not recorded `frame` or boxed another object count.
    Status record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame);
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame`; never blocks. Pairs: every tested pair with a volume
    // > 0 (volume, volumeErrorBound), plus every truncated pair (with a warning naming why).
    Status results(uint64_t frame, FrameResults& out, EbpiFrameDetails* details = nullptr);

    // Blocking: a frame cut for rays or hit slots runs again once they have grown to its need
    // (rayMemoryBudget above), so it answers `truncated` only past that budget.
    Result<FrameResults> run(const Scene& scene, const BroadphaseResults& pcs, EbpiFrameDetails* details = nullptr);
    // GPU-driven: its own broadphase and this detector in one submit (record(cmd, scene, broadphase, frame)).
    Result<FrameResults> run(const Scene& scene, EbpiFrameDetails* details = nullptr);

    const EbpiSettings& settings() const;
    // The tolerance of the frames recorded from now on (frames already recorded keep theirs, and
    // their results() say which); nothing is re-created. InvalidArgument unless finite and > 0.
    Status setTolerance(double tolerance);
    EbpiRayBackendChoice rayBackend() const;  // the backend create() chose (never Default)

private:
    explicit EbpiDetector(std::unique_ptr<EbpiDetectorImpl> impl);
    std::unique_ptr<EbpiDetectorImpl> impl_;
    friend struct EbpiDetectorAccess;
};

}  // namespace vkc
