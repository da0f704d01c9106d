// Method `ldi` (paper 2, Heidelberger, Teschner & Gross): volumetric collision detection with
// layered depth images. Per potentially colliding pair, the volume of interest (the overlap of the
// two world boxes, §3.1) is rendered from opposite outside faces into one LDI per object by
// stencil-routed depth peeling (§3.2, §4: the GPU decides n_max and issues the layer passes itself);
// the sorted layers classify each pixel's ray into inside intervals. Stage 3 intersects them into an
// intersection volume (§3.3a) and tests each object's vertices against the other's LDI (§3.3b);
// the order of front and back faces along the rays flags self-intersections (§7). Results come back
// frames later through a mapped read-back ring, like the broadphase's.
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
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vkc {

// Zero-initialised means defaults (the common part: detector.h). Memory per frame in flight:
// layers res^2 x layerCap x 4 B per LDI (2 per pair: 8 MiB per pair at the defaults), an atlas of
// 2 x maxPairs tiles (5 B per pixel), res^2 x 4 B per pair for the intersection-depth images:
// about 36 MiB per frame in flight at the defaults. Limits: each per-frame buffer is bound whole,
// so 2 x maxPairs x res^2 x layerCap x 4 B (the layers) must fit the device's
// maxStorageBufferRange and 2^32 bytes (4 GiB; lavapipe binds at most 128 MiB, e.g. 1024^2 x cap 16
// fits 1 pair there, and 1024^2 x cap 4 fits 4): create() refuses larger settings with
// InvalidArgument naming resolution, layerCap and maxPairs.
// Where each pair's volume_error_bound comes from (LdiPairDetails::volumeErrorBound).
enum class LdiErrorBound : uint32_t {
    // The tight bound, computed in record() on the CPU from the meshes' edges and the curves where
    // their surfaces cross: about 1-2% of the volume, and milliseconds of CPU per pair (4 ms on the
    // meshes README's pairs). A pair with a mesh the host deforms in its own buffer, whose drawn
    // positions the CPU does not have, gets the DrawnTriangles bound instead, and so does every
    // pair of a GPU-driven frame (record(cmd, scene, broadphase, frame)): the CPU never sees its pairs.
    Tight = 0,
    // Every pair's bound on the GPU from its drawn triangles (the volume of the tube of radius d
    // around those near the overlap, which does not grow with the tessellation): sound, 4-59 times
    // looser (a median 9; on ../shared/scenes/regressions' pairs a median 74% of the volume,
    // against 7%), and no CPU time in record().
    DrawnTriangles = 1,
};

struct LdiSettings : DetectorSettings {
    uint32_t resolution = 0;      // 0: 320. Pixels per side of each LDI (the paper used 128)
    uint32_t layerCap = 0;        // 0: 16, at most 254. Layers peeled per pixel, at most; an LDI with
                                  // more (n_max > cap) is `truncated` and gives no volume. It grows:
    // 0: 512 MiB. After a frame whose pairs needed more layers than layerCap, the frames recorded
    // next peel as many (at most 254) while their peeled layers (2 x maxPairs x res^2 x cap x 4 B)
    // stay within this many bytes and one storage-buffer binding; past that the pairs stay
    // `truncated` and a warning names this setting. A blocking run() grows and runs again at once.
    // settings() shows what layerCap grew to. Set it to 1 to keep layerCap as given.
    uint64_t layerMemoryBudget = 0;
    uint32_t maxPairs = 0;        // 0: 4. Pairs with a volume of interest one frame renders (the
                                  // atlas holds 2 LDIs per pair); more is InvalidArgument naming it
                                  // (a GPU-driven frame: `truncated`, naming it, the largest (a, b) left)
    uint32_t insideCapacity = 0;  // 0: 65536. Inside vertices / points listed per frame; counts stay exact
    bool keepImages = false;      // read back each pair's per-pixel intersection depth (LdiPairDetails)
    LdiErrorBound errorBound = LdiErrorBound::Tight;
};

// Inside-vertex encoding in PairResult::insideVertices: a vertex index of object a (inside b's LDI)
// as is; a vertex index of object b (inside a's LDI) with this bit set.
inline constexpr uint32_t kLdiInsideVertexOfB = 0x80000000u;

// Per tested pair (every candidate pair whose VoI is not empty), in candidate order.
struct LdiPairDetails {
    uint32_t a = 0, b = 0;
    uint32_t layersA = 0, layersB = 0;  // n_max of each LDI inside the VoI (stencil counts, clamped at 255)
    bool truncated = false;             // an LDI needed more layers than the cap: no volume
    uint32_t neededLayers = 0;          // max(layersA, layersB); 255 means "at least 255"
    uint32_t invalidOrderPixelsA = 0;   // pixels whose front/back order is broken (§7)
    uint32_t invalidOrderPixelsB = 0;
    uint32_t resolution = 0;
    uint32_t axis = 2;                  // rays run along this world axis
    bool aFromMin = true;               // a's outside face is box.min[axis], b's box.max[axis]
    bool extended = false;              // the VoI was extended (Fig. 2b: one box inside the other)
    Aabb box;                           // the VoI rendered
    double volume = 0.0;                // as in PairResult (0 when truncated)
    // |volume - exact| is at most this, computed from the triangles drawn: on the CPU (tight, about
    // 1-2% of the volume) while the CPU's positions are the drawn ones; on the GPU (the volume of
    // the tube around the triangles near the overlap, sound but 4-59 times looser) for a pair with
    // a mesh the host deforms in its own buffer (markDeformed, MeshDesc::deformedEveryFrame), and
    // for every pair with LdiSettings::errorBound = DrawnTriangles.
    double volumeErrorBound = 0.0;
    std::vector<float> intersectionDepth;  // res^2, row j (axis (axis+2)%3) major: overlap length of
                                           // the inside intervals, world units; only with keepImages
};

// A self-intersection (§7): pixels of an object's LDI whose sorted layers do not alternate entry,
// leave, entry, ... and the world box they span (pixel footprints x the layers' depth range).
// A float depth tie at a silhouette pixel flips a front and a back face of a clean mesh too, so a
// flagged mesh is checked on the CPU once (triangle pairs of its own AABB tree, kept until it is
// deformed): only a mesh with crossing triangles is reported and warned about. A mesh read from a
// host buffer the host deformed cannot be checked and is reported as flagged, its warning saying so.
struct LdiSelfIntersection {
    uint32_t object = 0;
    uint32_t pixels = 0;
    Aabb region;
};

struct LdiFrameDetails {
    std::vector<LdiPairDetails> pairs;
    std::vector<LdiSelfIntersection> selfIntersections;  // one per object, over the LDIs it was drawn in
    uint32_t renderPasses = 0;  // peels recorded: the count pass + layerCap - 1 layers (one render pass)
};

// Vertex-in-volume for arbitrary points against one object's LDI (paper 2, Table 2 / Fig. 10).
struct LdiPointResults {
    uint64_t insideCount = 0;        // exact
    std::vector<uint32_t> inside;    // point indices, sorted; at most insideCapacity
    bool truncated = false;          // insideCount > insideCapacity
    uint32_t layers = 0;             // n_max of the object's LDI
    bool layersTruncated = false;    // n_max > layerCap: no point was tested
    std::map<std::string, double> gpuTimingsMs;
};

struct LdiDetectorImpl;

// Lifetime: an LdiDetector must not outlive its Context (run(scene) creates a broadphase on it).
class LdiDetector {
public:
    using Settings = LdiSettings;
    using Details = LdiFrameDetails;

    // Errors: InvalidArgument for an invalid context or settings; MissingFeature when no
    // depth-stencil format with 8 stencil bits can be rendered; OutOfDeviceMemory naming the buffer.
    static Result<LdiDetector> create(Context& context, const LdiSettings& settings = {});
    LdiDetector(LdiDetector&&) noexcept;
    LdiDetector& operator=(LdiDetector&&) noexcept;
    ~LdiDetector();

    // Records the method for `frame` (frames increase by one per call) into the host's command
    // buffer (outside a render pass), over `candidates` (detector.h); a pair whose boxes overlap
    // with no volume is not tested. Errors: those of detector.h (NotReady, InvalidArgument for the
    // candidates or the scene's size, Unsupported), InvalidArgument for more pairs with a volume
    // than maxPairs, and InvalidMesh for a mesh that is not a closed, oriented solid ("ldi: object 3
    // "o3" (mesh "x") is not a closed, manifold, outward-oriented solid (open (2 boundary edges))").
    Status record(VkCommandBuffer cmd, const Scene& scene, const CandidateSet& candidates, uint64_t frame);
    // GPU-driven (the embedding default): over the pairs and boxes `broadphase` recorded for `frame`
    // earlier in the same command buffer, read on the GPU (no CPU bounds, nothing stale). The GPU
    // computes each pair's VoI, views and tiles (ldi_pair_setup.comp), draws them with indirect
    // commands and bounds each volume from its drawn triangles (LdiErrorBound::DrawnTriangles,
    // whatever settings.errorBound says). Every frame records maxPairs pair slots: what the GPU
    // could not test (more pairs with a VoI than maxPairs: the largest (a, b) are left; an object
    // that is not a closed solid; a truncated broadphase list) makes results() `truncated`, with a
    // warning naming the limit, instead of an error here. Errors: those of detector.h.
    Status record(VkCommandBuffer cmd, const Scene& scene, const Broadphase& broadphase, uint64_t frame);
    // Add this to the vkQueueSubmit2 that carries the frame's command buffer.
    VkSemaphoreSubmitInfo completionSignal(uint64_t frame);
    // NotReady until the GPU finished `frame`; never blocks. Pairs: every pair with a volume > 0 or
    // inside vertices, plus every truncated pair (undecided: `truncated`, no volume, a warning with
    // the needed layers); `colliding` counts decided pairs only. Warnings also name self-intersections.
    Status results(uint64_t frame, FrameResults& out, LdiFrameDetails* details = nullptr);

    // Records a vertex-in-volume query for `frame` instead of pairs: `count` points (three floats
    // each, `stride` bytes apart from `offset`; world space) in the host's storage buffer, against
    // an LDI of `object` over `objectBounds` (its world box, e.g. the broadphase's) with rays along z.
    // offset and stride: multiples of 4 bytes, stride >= 12, and every point's floats within the
    // bytes one storage-buffer binding reaches from the buffer's start (maxStorageBufferRange, at
    // most 4 GiB; the buffer itself may be larger); InvalidArgument otherwise.
    Status recordPointQuery(VkCommandBuffer cmd, const Scene& scene, uint32_t object, const Aabb& objectBounds,
                            VkBuffer points, VkDeviceSize offset, uint32_t stride, uint32_t count, uint64_t frame);
    Status pointResults(uint64_t frame, LdiPointResults& out);

    // Blocking conveniences for tools and tests: record, submit, wait, read.
    Result<FrameResults> run(const Scene& scene, const BroadphaseResults& pcs, LdiFrameDetails* details = nullptr);
    // Same, running its own broadphase (settings.broadphase) first: with errorBound Tight its pairs
    // are read back and recorded as a host's (the tight bound needs them on the CPU); with
    // DrawnTriangles GPU-driven, in one submit (record(cmd, scene, broadphase, frame)).
    Result<FrameResults> run(const Scene& scene, LdiFrameDetails* details = nullptr);
    // Uploads the points, builds the object's LDI over its own world box (from the mesh's CPU
    // positions: for a mesh the host deforms on the GPU, use recordPointQuery with its bounds) and
    // tests them.
    Result<LdiPointResults> classifyPoints(const Scene& scene, uint32_t object, std::span<const glm::vec3> worldPoints);

    const LdiSettings& settings() const;  // with defaults filled in
private:
    friend struct LdiDetectorAccess;  // the library's internals and tests (collision/ldi/ldi_detector_impl.h)
    explicit LdiDetector(std::unique_ptr<LdiDetectorImpl> impl);
    std::unique_ptr<LdiDetectorImpl> impl_;
};

}  // namespace vkc
