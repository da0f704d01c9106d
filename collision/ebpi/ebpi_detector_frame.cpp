// vkc::EbpiDetector, recording: per tested pair its three views (ebpi_pair_views.h: windows and
// depth ranges from the boxes alone), the host tables the passes read (objects, mesh edges, views,
// image jobs, plan inputs, pairs), and one graph: the pairs' directions (ebpi_direction_passes.h:
// normal histograms as drawn, Eq. 12, the views' rotations) -> the tested pairs' aabb-tree traversal
// (candidate triangle pairs for the transient edges, aabb_traversal_frame.h) -> EBPI
// (ebpi_image_passes.h) -> rays (ebpi_ray_passes.h) -> casting (ebpi_trace_passes.h) -> volume and
// gradient (ebpi_volume_passes.h) -> one read-back. The directions and the counts stay on the
// GPU: the transient edges read the traversal's, casting and volume are dispatched from the ray
// scan's counters.
#include "collision/ebpi/ebpi_detector_impl.h"

#include "collision/ebpi/ebpi_directions.h"
#include "collision/ebpi/ebpi_mesh_edges.h"
#include "collision/ebpi/ebpi_ray_plan.h"
#include "collision/ebpi/ebpi_volume_cpu.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/frame_warnings.h"
#include "collision/frames/object_gpu.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/scene_impl.h"
#include "passes/ebpi/ebpi_direction_passes.h"
#include "passes/ebpi/ebpi_image_passes.h"
#include "passes/ebpi/ebpi_ray_passes.h"
#include "passes/ebpi/ebpi_trace_passes.h"
#include "passes/ebpi/ebpi_volume_passes.h"
#include "shaders_glsl/shared/broadphase.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <map>
#include <optional>

namespace vkc {

namespace {

// Every host table of one frame.
struct FrameTables {
    std::vector<gpu::ObjectGpu> imageObjects;
    std::vector<gpu::EbpiTraceObjectGpu> traceObjects;
    std::vector<MeshId> traceMeshes;  // each trace object's mesh (the compute backend's tree)
    std::vector<gpu::EbpiMeshEdgeGpu> edges;
    std::vector<gpu::EbpiViewGpu> views;
    std::vector<gpu::EbpiRayViewGpu> rayViews;
    std::vector<gpu::EbpiImageJobGpu> jobs;
    std::vector<gpu::EbpiVolumePairGpu> pairs;
    std::vector<gpu::EbpiCrossingPairGpu> crossingPairs;
    std::vector<gpu::EbpiDirectionPairGpu> directionPairs;
    std::vector<ObjectPair> traversed;  // the tested pairs, for the transient edges' traversal
    uint32_t pixels = 0, tiles = 0, mostTiles = 0, mostLevels = 0, mostEdges = 0, gradientSlots = 0;
    uint32_t mostTriangles = 0;  // of a pair's two meshes
};

}  // namespace

glm::dmat3 EbpiDetectorImpl::startAxes(uint32_t a, uint32_t b) const {
    const auto previous = previousAxes.find({a, b});
    if (settings.directions == EbpiDirectionChoice::WorldAxes || previous == previousAxes.end()) return glm::dmat3(1.0);
    return previous->second;
}

Result<std::vector<EbpiRecordedPair>> EbpiDetectorImpl::testedPairs(const SceneImpl& scene,
                                                                    const CandidateSet& candidates,
                                                                    std::span<const ObjectPair> pairs) const {
    const EbpiSettings& s = settings;
    std::vector<EbpiRecordedPair> recorded;
    for (const ObjectPair& pair : pairs) {
        VKC_TRY(requireClosedSolid(scene, pair.a, "ebpi"));
        VKC_TRY(requireClosedSolid(scene, pair.b, "ebpi"));
        const SceneObject& a = scene.objects[pair.a];
        const SceneObject& b = scene.objects[pair.b];
        // Boxes that only touch hold no intersection volume: not tested. Tightened in double where
        // the CPU positions are current (far from the origin a float box is far larger than the object).
        const SceneMesh& meshA = scene.meshes[a.mesh];
        const SceneMesh& meshB = scene.meshes[b.mesh];
        const EbpiBox boxA = ebpiObjectBox(candidates.worldBounds[pair.a],
                                           meshA.ownsPositions() ? &meshA.data : nullptr, a.objectToWorld);
        const EbpiBox boxB = ebpiObjectBox(candidates.worldBounds[pair.b],
                                           meshB.ownsPositions() ? &meshB.data : nullptr, b.objectToWorld);
        std::optional<EbpiPairViews> views = ebpiPairViews(boxA, boxB, startAxes(pair.a, pair.b), s.resolution);
        if (!views) continue;
        EbpiRecordedPair r;
        r.a = pair.a;
        r.b = pair.b;
        r.views = *views;
        r.verticesA = uint32_t(scene.meshes[a.mesh].data.positions.size());
        r.verticesB = uint32_t(scene.meshes[b.mesh].data.positions.size());
        recorded.push_back(std::move(r));
    }
    if (recorded.size() > s.maxPairs)
        return makeError(ErrorCode::InvalidArgument, "ebpi: " + std::to_string(recorded.size()) +
                                                         " pairs with overlapping boxes, more than EbpiSettings::maxPairs (" +
                                                         std::to_string(s.maxPairs) + ")");
    uint64_t gradientVertices = 0;
    for (const EbpiRecordedPair& r : recorded) gradientVertices += uint64_t(r.verticesA) + r.verticesB;
    if (gradientVertices > s.maxGradientVertices)
        return makeError(ErrorCode::InvalidArgument,
                         "ebpi: the tested pairs' objects have " + std::to_string(gradientVertices) +
                             " vertices, more than EbpiSettings::maxGradientVertices (" +
                             std::to_string(s.maxGradientVertices) + ")");
    return recorded;
}

Status EbpiDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates,
                                     uint64_t frame) {
    VulkanContext& c = *ctx;
    const EbpiSettings& s = settings;
    auto candidatePairs = frameCandidatePairs({"ebpi", "EbpiSettings", s}, uint32_t(scene.objects.size()), candidates);
    if (!candidatePairs) return candidatePairs.status();

    auto chosen = testedPairs(scene, candidates, candidatePairs.value());
    if (!chosen) return chosen.status();
    std::vector<EbpiRecordedPair> recorded = std::move(chosen.value());
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    EbpiSlot& slot = slots[frame % slots.size()];
    // Trees are keyed by mesh id, which means something else in another scene.
    if (trees.enterScene(scene))
        for (EbpiSlot& other : slots) other.traversal.nodesValid = false;
    if (recorded.empty()) {  // nothing to measure: an empty frame still signals and reads back
        auto empty = std::make_unique<Graph>();
        VKC_TRY(empty->compile(slotResources(frames, frame)));
        VKC_TRY(executeFrameGraph(c, frames, frame, *empty, cmd));
        noteFrameInputs(frames, frame, scene, candidatePairs.value(), "ebpi");
        slot.pairs.clear();
        slot.graph = std::move(empty);
        return Status::success();
    }
    ensureSceneIndices(slot.indices, scene);

    // Each pair's objects, their vertex buffers and mesh edges (each mesh once).
    FrameTables t;
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "ebpi: the frame reads");
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> meshEdges;  // mesh -> (first edge, count)
    // Each pair's two objects, placed relative to the pair's origin (ebpi_pair_views.h).
    auto objectIndex = [&](uint32_t object, const glm::dvec3& origin) -> Result<uint32_t> {
        const SceneObject& o = scene.objects[object];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        auto vertexSlot = vertexSlots.slot(mesh.vertexBuffer, objectLabel(scene, object));
        if (!vertexSlot) return vertexSlot.status();
        if (meshEdges.find(o.mesh) == meshEdges.end()) {
            const auto gpuEdges = ebpiMeshEdgesGpu(ebpiMeshEdges(mesh.data.indices), mesh.data.indices);
            meshEdges[o.mesh] = {uint32_t(t.edges.size()), uint32_t(gpuEdges.size())};
            t.edges.insert(t.edges.end(), gpuEdges.begin(), gpuEdges.end());
        }
        const gpu::ObjectGpu placed = objectGpu(scene, o, origin, vertexSlot.value());
        t.imageObjects.push_back(placed);
        t.traceObjects.push_back({placed, slot.indices.firstIndex[o.mesh], uint32_t(mesh.data.indices.size() / 3), 0, 0});
        t.traceMeshes.push_back(o.mesh);
        return uint32_t(t.imageObjects.size() - 1);
    };
    for (uint32_t p = 0; p < recorded.size(); ++p) {
        EbpiRecordedPair& r = recorded[p];
        auto objectA = objectIndex(r.a, r.views.origin);
        if (!objectA) return objectA.status();
        auto objectB = objectIndex(r.b, r.views.origin);
        if (!objectB) return objectB.status();
        // Tile areas and lengths inside both stay below the window's diagonal squared and the depth
        // range, whatever the direction the GPU chooses.
        const EbpiVolumeScales scales = ebpiVolumeScales(r.views.extent);
        // The crossings inside the views' region: the overlap grown by far more than the float
        // placements' rounding, so that a face lying on the overlap's boundary (a box's face
        // against another box) is not lost to it. A larger box only adds terms.
        gpu::EbpiCrossingPairGpu crossing{};
        const EbpiEdgeRegion& region = r.views.views[0].region;
        for (int k = 0; k < 3; ++k) {
            crossing.regionLo[k] = region.lo[k];
            crossing.regionHi[k] = region.hi[k];
        }
        crossing.objectA = objectA.value();
        crossing.objectB = objectB.value();
        crossing.firstIndexA = slot.indices.firstIndex[scene.objects[r.a].mesh];
        crossing.firstIndexB = slot.indices.firstIndex[scene.objects[r.b].mesh];
        crossing.firstView = uint32_t(t.views.size());
        t.crossingPairs.push_back(crossing);
        // The directions: from its last axes, over both meshes' normals as drawn (Sec. 4.4).
        gpu::EbpiDirectionPairGpu direction{};
        const glm::dmat3 start = startAxes(r.a, r.b);
        for (int k = 0; k < 9; ++k) direction.start[k] = start[k / 3][k % 3];
        direction.histogramScale = ebpiHistogramScale(r.views.extent);
        direction.objectA = objectA.value();
        direction.objectB = objectB.value();
        direction.firstIndexA = crossing.firstIndexA;
        direction.firstIndexB = crossing.firstIndexB;
        direction.trianglesA = uint32_t(scene.meshes[scene.objects[r.a].mesh].data.indices.size() / 3);
        direction.trianglesB = uint32_t(scene.meshes[scene.objects[r.b].mesh].data.indices.size() / 3);
        direction.firstView = crossing.firstView;
        direction.optimize = s.directions == EbpiDirectionChoice::Optimized ? 1u : 0u;
        for (int k = 0; k < 3; ++k) {
            direction.overlapLo[k] = r.views.overlap.lo[k];
            direction.overlapHi[k] = r.views.overlap.hi[k];
            direction.unionLo[k] = r.views.both.lo[k];
            direction.unionHi[k] = r.views.both.hi[k];
        }
        direction.resolution = s.resolution;
        direction.hitCapacity = s.hitCapacity;
        // The rays leave room for what the fixed-point sums may round by (at most half a quantum a
        // ray, ebpi_volume_cpu.h) and the GPU adds the float hits' (ebpiFloatRoundingBound), so
        // that bound + rounding stays within the tolerance.
        direction.fixedReserve = 0.5 * double(s.maxRays) / scales.volumeScale;
        t.directionPairs.push_back(direction);
        t.mostTriangles = std::max(t.mostTriangles, direction.trianglesA + direction.trianglesB);
        t.traversed.push_back({r.a, r.b});
        r.volume = {objectA.value(), objectB.value(), t.gradientSlots, t.gradientSlots + r.verticesA,
                    scales.volumeScale, scales.gradientScale};
        t.gradientSlots += r.verticesA + r.verticesB;
        t.pairs.push_back(r.volume);
        r.firstPixel = t.pixels;
        r.firstTile = t.tiles;
        // Each view's window, depth range and pyramid come from the GPU once it has the direction
        // (ebpi_directions.comp): room for the largest, resolution x resolution.
        const uint32_t levels = ebpiPyramidLevels(s.resolution, s.resolution);
        const uint32_t tiles = ebpiPyramidTiles(s.resolution, s.resolution);
        for (uint32_t axis = 0; axis < 3; ++axis) {
            const EbpiPairView& v = r.views.views[axis];
            const uint32_t view = uint32_t(t.views.size());
            t.views.push_back(ebpiViewGpu(v.rotation, v.window, t.pixels, v.region));
            t.rayViews.push_back({s.tolerance, 0.0, v.zMin, v.zMax, t.tiles, levels, objectA.value(), objectB.value(), p, axis});
            for (const auto& [object, local] : {std::pair{r.a, objectA.value()}, std::pair{r.b, objectB.value()}}) {
                const auto [firstEdge, edgeCount] = meshEdges[scene.objects[object].mesh];
                t.jobs.push_back({view, local, firstEdge, edgeCount});
                t.mostEdges = std::max(t.mostEdges, edgeCount);
            }
            t.pixels += s.resolution * s.resolution;
            t.tiles += tiles;
            t.mostTiles = std::max(t.mostTiles, tiles);
            t.mostLevels = std::max(t.mostLevels, levels);
        }
    }
    const VkDeviceSize edgeBytes = VkDeviceSize(t.edges.size()) * sizeof(gpu::EbpiMeshEdgeGpu);
    if (edgeBytes > c.properties.limits.maxStorageBufferRange)
        return makeError(ErrorCode::Unsupported,
                         "ebpi: the tested pairs' meshes have " + std::to_string(t.edges.size()) + " edges (" +
                             std::to_string(edgeBytes) + " bytes), above the device's maxStorageBufferRange " +
                             std::to_string(c.properties.limits.maxStorageBufferRange) + ": test fewer pairs per frame");
    const bool accelStructs = ebpiUsesAccelStructs(backend);
    if (accelStructs) VKC_TRY(prepareEbpiAccelFrame(c, backend, slot.accel, t.traceObjects));

    auto ownedGraph = std::make_unique<Graph>();
    Graph& graph = *ownedGraph;
    auto host = [&](const char* name, VkDeviceSize bytes) {
        return graph.createBuffer(name, GraphBufferDesc{std::max<VkDeviceSize>(bytes, 16), 0, true});
    };
    auto device = [&](const char* name, VkDeviceSize bytes, VkBufferUsageFlags usage = 0) {
        return graph.createBuffer(name, GraphBufferDesc{std::max<VkDeviceSize>(bytes, 16), usage});
    };
    const uint32_t viewCount = uint32_t(t.views.size());
    const uint32_t maxGroups = c.properties.limits.maxComputeWorkGroupCount[0];
    const BufferHandle indices = declareSceneIndices(graph, slot.indices, "ebpi");
    const std::vector<BufferHandle> vertices = importVertexBuffers(graph, vertexSlots.buffers());

    // The directions first: every later pass reads the views' rotations they write.
    EbpiDirectionPassInputs aim;
    aim.histogramPipeline = &histogram;
    aim.directionsPipeline = &directions;
    aim.set = slot.directionSet;
    aim.pairCount = uint32_t(t.directionPairs.size());
    aim.mostTriangles = t.mostTriangles;
    aim.objects = host("ebpi objects", t.imageObjects.size() * sizeof(gpu::ObjectGpu));
    aim.indices = indices;
    aim.pairs = host("ebpi direction pairs", t.directionPairs.size() * sizeof(gpu::EbpiDirectionPairGpu));
    aim.vertices = vertices;
    aim.histogram = device("ebpi normal histograms", VkDeviceSize(aim.pairCount) * gpu::kEbpiHistogramWords * 4);
    aim.views = host("ebpi views", viewCount * sizeof(gpu::EbpiViewGpu));
    aim.axes = device("ebpi axes", VkDeviceSize(aim.pairCount) * 9 * sizeof(double));
    aim.rayViews = host("ebpi ray views", viewCount * sizeof(gpu::EbpiRayViewGpu));
    const EbpiDirectionPassOutputs aimed = addEbpiDirectionPasses(graph, aim);

    // The candidates for the transient edges: every pair of the tested pairs' triangles whose leaf
    // boxes overlap, found by the aabb-tree traversal over the vertex buffers as drawn. Its trees,
    // refit where the meshes deform, are also what the compute backend's rays traverse.
    std::optional<AabbTraversalRecording> traversal;
    BufferHandle traversedPairs;  // in the broadphase's pair-list layout
    if (!s.omitTransientEdges || backend == EbpiRayBackend::Compute) {
        AabbTraversalRequest request;
        request.method = "ebpi";
        request.pairsPipeline = &aabbPairs;
        request.refitPipeline = &aabbRefit;
        request.indirectPipeline = &aabbIndirect;
        request.traversePipeline = &aabbTraverse;
        request.nodePairCapacity = s.nodePairCapacity;
        request.trianglePairCapacity = s.trianglePairCapacity;
        request.pairCapacity = s.maxPairs;
        request.vertexBufferCapacity = frames.vertexBufferCapacity;
        traversedPairs = host("ebpi traversed pairs", sizeof(gpu::PairListHeader) + t.traversed.size() * 8);
        auto added = addAabbTraversal(graph, c, trees, slot.traversal, scene,
                                      {traversedPairs, uint32_t(t.traversed.size())}, request);
        if (!added) return added.status();
        traversal = std::move(added.value());
        const std::vector<MeshId>& layout = traversal->next.layout;
        for (size_t o = 0; o < t.traceObjects.size(); ++o)
            t.traceObjects[o].tree = uint32_t(std::find(layout.begin(), layout.end(), t.traceMeshes[o]) - layout.begin());
    }
    const bool crossings = !s.omitTransientEdges;

    EbpiImagePassInputs image;
    image.depthExtentPipeline = &depthExtent;
    image.edgeTermsPipeline = &edgeTerms;
    image.transientPipeline = crossings ? &transientTerms : nullptr;
    image.set = slot.imageSet;
    image.viewCount = viewCount;
    image.jobCount = uint32_t(t.jobs.size());
    image.mostEdgesPerJob = t.mostEdges;
    image.pixelCount = t.pixels;
    image.objects = aim.objects;
    image.views = aimed.views;
    image.jobs = host("ebpi image jobs", t.jobs.size() * sizeof(gpu::EbpiImageJobGpu));
    image.edges = host("ebpi mesh edges", t.edges.size() * sizeof(gpu::EbpiMeshEdgeGpu));
    image.vertices = vertices;
    image.extents = device("ebpi depth extents", t.jobs.size() * sizeof(gpu::EbpiDepthExtentGpu));
    image.pixels = device("ebpi pixels", VkDeviceSize(t.pixels) * sizeof(gpu::EbpiPixelGpu));
    image.status = device("ebpi image overflow flags", viewCount * 4);
    if (crossings) {
        image.indices = indices;
        image.trianglePairs = traversal->outputs.trianglePairs;
        image.traversal = traversal->outputs.state;
        image.crossingPairs = host("ebpi crossing pairs", t.crossingPairs.size() * sizeof(gpu::EbpiCrossingPairGpu));
        image.trianglePairCapacity = s.trianglePairCapacity;
    }
    const EbpiImagePassOutputs built = addEbpiImagePasses(graph, image);

    EbpiRayPassInputs rays;
    rays.pyramidPipeline = &pyramid;
    rays.optionsPipeline = &options;
    rays.allocatePipeline = &allocate;
    rays.scanPipeline = &scan;
    rays.generatePipeline = &generate;
    rays.set = slot.raySet;
    rays.viewCount = viewCount;
    rays.mostLevels = t.mostLevels;
    rays.mostTiles = t.mostTiles;
    rays.maxSplit = s.maxSplit;
    rays.maxRays = s.maxRays;
    rays.views = image.views;
    rays.rayViews = aimed.rayViews;
    rays.pixels = built.pixels;
    rays.imageStatus = built.status;
    rays.pyramid = device("ebpi pyramid", VkDeviceSize(t.tiles) * sizeof(gpu::EbpiPyramidTexelGpu));
    rays.tiles = device("ebpi ray tiles", VkDeviceSize(t.tiles) * sizeof(gpu::EbpiRayTileGpu));
    rays.costs = device("ebpi ray costs", VkDeviceSize(t.tiles) * sizeof(gpu::EbpiRayCostGpu));
    rays.options = device("ebpi ray options", VkDeviceSize(t.pixels) * sizeof(gpu::EbpiRayOptionsGpu));
    rays.flags = device("ebpi ray flags", viewCount * 4);
    rays.results = device("ebpi view results", viewCount * sizeof(gpu::EbpiRayViewResultGpu));
    rays.counters = device("ebpi ray counters", sizeof(gpu::EbpiRayCountersGpu), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    rays.rays = device("ebpi rays", VkDeviceSize(s.maxRays) * sizeof(gpu::EbpiRayGpu));
    rays.samples = device("ebpi ray samples", VkDeviceSize(s.maxRays) * sizeof(gpu::EbpiRaySampleGpu));
    rays.volumeRays = device("ebpi volume rays", VkDeviceSize(s.maxRays) * sizeof(gpu::EbpiVolumeRayGpu));
    const EbpiRayPassOutputs planned = addEbpiRayPasses(graph, rays);

    EbpiTracePassInputs cast;
    cast.backend = backend;
    cast.pipelines = &tracePipelines;
    cast.set = slot.traceSet;
    cast.rayCount = s.maxRays;
    cast.hitCapacity = s.hitCapacity;
    cast.maxGroups = maxGroups;
    cast.objects = host("ebpi trace objects", t.traceObjects.size() * sizeof(gpu::EbpiTraceObjectGpu));
    cast.indices = indices;
    cast.rays = planned.rays;
    cast.rayCounters = planned.counters;
    cast.vertices = image.vertices;
    if (accelStructs) {
        cast.accel = &slot.accel.structs;
        cast.objectCount = uint32_t(t.traceObjects.size());
        for (const gpu::EbpiTraceObjectGpu& o : t.traceObjects) cast.mostTriangles = std::max(cast.mostTriangles, o.triangleCount);
        cast.boxes = graph.importBuffer("ebpi triangle boxes", ImportedBuffer{slot.accel.boxes.buffer});
    }
    if (backend == EbpiRayBackend::Compute) {
        cast.trees = traversal->outputs.trees;
        cast.nodes = traversal->outputs.nodes;
        cast.leaves = traversal->outputs.leaves;
    }
    if (backend == EbpiRayBackend::RayTracingPipeline) {
        cast.launch = graph.importBuffer("ebpi trace launch", ImportedBuffer{slot.accel.launch.buffer});
        cast.launchAddress = slot.accel.launchAddress;
    }
    cast.rayHits = device("ebpi ray hit counts", VkDeviceSize(s.maxRays) * sizeof(gpu::EbpiRayHitsGpu));
    cast.hits = device("ebpi hits", VkDeviceSize(s.maxRays) * s.hitCapacity * sizeof(gpu::EbpiHitGpu));
    const EbpiTraceOutputs traced = addEbpiTracePasses(graph, cast);

    EbpiVolumePassInputs sums;
    sums.volumePipeline = &volume;
    sums.set = slot.volumeSet;
    sums.rayCount = s.maxRays;
    sums.hitCapacity = s.hitCapacity;
    sums.pairCount = uint32_t(t.pairs.size());
    sums.gradientSlots = t.gradientSlots;
    sums.maxGroups = maxGroups;
    sums.objects = cast.objects;
    sums.indices = cast.indices;
    sums.rayInfos = planned.volumeRays;
    sums.rayHits = traced.rayHits;
    sums.hits = traced.hits;
    sums.pairs = host("ebpi pairs", t.pairs.size() * sizeof(gpu::EbpiVolumePairGpu));
    sums.rayCounters = planned.counters;
    sums.sums = device("ebpi volume sums", t.pairs.size() * gpu::kEbpiVolumeAxes * sizeof(gpu::EbpiPairVolumeGpu));
    sums.gradients = device("ebpi gradient sums", VkDeviceSize(t.gradientSlots) * gpu::kEbpiVolumeAxes * 8);
    auto summed = addEbpiVolumePasses(graph, sums);
    if (!summed) return summed.status();

    std::vector<ReadbackCopy> copies = {
        {kEbpiReadbackViewResults, planned.results, VkDeviceSize(viewCount) * sizeof(gpu::EbpiRayViewResultGpu)},
        {kEbpiReadbackCounters, planned.counters, sizeof(gpu::EbpiRayCountersGpu)},
        {kEbpiReadbackSums, summed->sums, t.pairs.size() * gpu::kEbpiVolumeAxes * sizeof(gpu::EbpiPairVolumeGpu)},
        {kEbpiReadbackGradients, summed->gradients, VkDeviceSize(t.gradientSlots) * gpu::kEbpiVolumeAxes * 8}};
    if (s.keepImages) {
        copies.push_back({kEbpiReadbackPixels, built.pixels, VkDeviceSize(t.pixels) * sizeof(gpu::EbpiPixelGpu)});
        copies.push_back({kEbpiReadbackTiles, planned.tiles, VkDeviceSize(t.tiles) * sizeof(gpu::EbpiRayTileGpu)});
    }
    if (crossings) copies.push_back({kEbpiReadbackTraversal, traversal->outputs.state, sizeof(gpu::AabbTraversalStateGpu)});
    copies.push_back({kEbpiReadbackAxes, aimed.axes, VkDeviceSize(aim.pairCount) * 9 * sizeof(double)});
    copies.push_back({kEbpiReadbackViews, aimed.views, VkDeviceSize(viewCount) * sizeof(gpu::EbpiViewGpu)});
    copies.push_back({kEbpiReadbackRayViews, aimed.rayViews, VkDeviceSize(viewCount) * sizeof(gpu::EbpiRayViewGpu)});
    addReadbackPass(graph, kEbpiReadbackPassName, frames.readback, importReadbackSlot(graph, "ebpi readback slot", frames.ring, frame),
                    copies);
    VKC_TRY(graph.compile(slotResources(frames, frame)));

    VulkanGraphAllocator& allocator = *frames.allocator;
    VKC_TRY(uploadSceneIndices(allocator, graph, cast.indices, slot.indices));
    VKC_TRY(fillHostBuffer(allocator, graph, image.objects, std::span<const gpu::ObjectGpu>(t.imageObjects)));
    VKC_TRY(fillHostBuffer(allocator, graph, aim.views, std::span<const gpu::EbpiViewGpu>(t.views)));
    VKC_TRY(fillHostBuffer(allocator, graph, aim.pairs, std::span<const gpu::EbpiDirectionPairGpu>(t.directionPairs)));
    VKC_TRY(fillHostBuffer(allocator, graph, image.jobs, std::span<const gpu::EbpiImageJobGpu>(t.jobs)));
    VKC_TRY(fillHostBuffer(allocator, graph, image.edges, std::span<const gpu::EbpiMeshEdgeGpu>(t.edges)));
    if (crossings)
        VKC_TRY(fillHostBuffer(allocator, graph, image.crossingPairs,
                               std::span<const gpu::EbpiCrossingPairGpu>(t.crossingPairs)));
    if (traversal) {
        std::vector<uint32_t> list = {uint32_t(t.traversed.size()), uint32_t(t.traversed.size()), 0u, 0u};
        for (const ObjectPair& p : t.traversed) list.insert(list.end(), {p.a, p.b});
        VKC_TRY(fillHostBuffer(allocator, graph, traversedPairs, std::span<const uint32_t>(list)));
        VKC_TRY(bindAabbTraversal(c, allocator, graph, frames.placeholder.buffer, *traversal, slot.traversal));
    }
    VKC_TRY(fillHostBuffer(allocator, graph, aim.rayViews, std::span<const gpu::EbpiRayViewGpu>(t.rayViews)));
    VKC_TRY(fillHostBuffer(allocator, graph, cast.objects, std::span<const gpu::EbpiTraceObjectGpu>(t.traceObjects)));
    VKC_TRY(fillHostBuffer(allocator, graph, sums.pairs, std::span<const gpu::EbpiVolumePairGpu>(t.pairs)));

    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    for (const auto& [binding, handle] : ebpiDirectionBufferBindings(aim)) d.storageBuffer(slot.directionSet, binding, handle);
    for (const auto& [binding, handle] : ebpiImageBufferBindings(image))
        d.storageBuffer(slot.imageSet, binding, handle);
    for (const auto& [binding, handle] : ebpiRayBufferBindings(rays)) d.storageBuffer(slot.raySet, binding, handle);
    const std::pair<uint32_t, BufferHandle> traceBindings[] = {
        {gpu::kEbpiTraceBindingObjects, cast.objects}, {gpu::kEbpiTraceBindingIndices, cast.indices},
        {gpu::kEbpiTraceBindingRays, cast.rays},       {gpu::kEbpiTraceBindingRayHits, cast.rayHits},
        {gpu::kEbpiTraceBindingHits, cast.hits},       {gpu::kEbpiTraceBindingRayCount, cast.rayCounters}};
    for (const auto& [binding, handle] : traceBindings) d.storageBuffer(slot.traceSet, binding, handle);
    const std::pair<uint32_t, BufferHandle> volumeBindings[] = {
        {gpu::kEbpiVolumeBindingObjects, sums.objects}, {gpu::kEbpiVolumeBindingIndices, sums.indices},
        {gpu::kEbpiVolumeBindingRayInfos, sums.rayInfos}, {gpu::kEbpiVolumeBindingRayHits, sums.rayHits},
        {gpu::kEbpiVolumeBindingHits, sums.hits},       {gpu::kEbpiVolumeBindingPairs, sums.pairs},
        {gpu::kEbpiVolumeBindingSums, sums.sums},       {gpu::kEbpiVolumeBindingGradients, sums.gradients},
        {gpu::kEbpiVolumeBindingRayCount, sums.rayCounters}};
    for (const auto& [binding, handle] : volumeBindings) d.storageBuffer(slot.volumeSet, binding, handle);
    for (VkDescriptorSet set : {slot.directionSet, slot.imageSet, slot.traceSet})
        writeStorageBufferArray(c, set, gpu::kBindingVertexBuffers, vertexSlots.buffers());
    if (accelStructs) {
        writeAccelerationStructure(c, slot.traceSet, gpu::kEbpiTraceBindingTlas, slot.accel.structs.tlas);
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingBoxes, cast.boxes);
    }
    if (cast.launch.valid()) d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingLaunch, cast.launch);
    if (backend == EbpiRayBackend::Compute) {
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingTrees, cast.trees);
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingNodes, cast.nodes);
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingLeaves, cast.leaves);
    }
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));

    noteFrameInputs(frames, frame, scene, candidatePairs.value(), "ebpi");
    slot.pairs = std::move(recorded);
    slot.graph = std::move(ownedGraph);
    return Status::success();
}

}  // namespace vkc
