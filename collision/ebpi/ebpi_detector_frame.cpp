// vkc::EbpiDetector, recording: the scene-wide tables (ebpi_scene_tables.h: every object, every
// closed mesh's edges; the pairs' last axes), the candidates (the same frame's broadphase buffers,
// or a host's checked on the CPU and uploaded in the same layout), and one graph: the pair setup
// (ebpi_setup_pass.h: the tested pairs and every per-pair table, on the GPU) -> the pairs'
// directions (ebpi_direction_passes.h: normal histograms as drawn, Eq. 12, the views' rotations)
// -> the tested pairs' aabb-tree traversal (candidate triangle pairs for the transient edges,
// aabb_traversal_frame.h) -> EBPI (ebpi_image_passes.h) -> rays (ebpi_ray_passes.h) -> casting
// (ebpi_trace_passes.h) -> volume and gradient (ebpi_volume_passes.h) -> one read-back. Nothing of
// a pair comes from the host: the tables are sized by the frame's pair slots (maxPairs; the host's
// own pair count when it gave them), and the counts stay on the GPU (the transient edges read the
// traversal's, casting and volume are dispatched from the ray scan's counters).
#include "collision/ebpi/ebpi_detector_impl.h"

#include "collision/ebpi/ebpi_ray_plan.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/frame_warnings.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/scene/scene_impl.h"
#include "passes/ebpi/ebpi_direction_passes.h"
#include "passes/ebpi/ebpi_image_passes.h"
#include "passes/ebpi/ebpi_ray_passes.h"
#include "passes/ebpi/ebpi_setup_pass.h"
#include "passes/ebpi/ebpi_trace_passes.h"
#include "passes/ebpi/ebpi_volume_passes.h"
#include "shaders_glsl/shared/broadphase.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <optional>

namespace vkc {

Result<std::vector<ObjectPair>> EbpiDetectorImpl::testedPairs(const SceneImpl& scene, const CandidateSet& candidates,
                                                              std::span<const ObjectPair> pairs) const {
    const EbpiSettings& s = settings;
    std::vector<ObjectPair> tested;
    uint64_t gradientVertices = 0;
    for (const ObjectPair& pair : pairs) {
        VKC_TRY(requireClosedSolid(scene, pair.a, "ebpi"));
        VKC_TRY(requireClosedSolid(scene, pair.b, "ebpi"));
        // Boxes that only touch hold no intersection volume: not tested. The GPU's setup tightens
        // its boxes alike (from boxes rounded outward, so it accepts every pair accepted here).
        auto box = [&](uint32_t object) {
            const SceneMesh& mesh = scene.meshes[scene.objects[object].mesh];
            return ebpiObjectBox(candidates.worldBounds[object], mesh.ownsPositions() ? &mesh.data : nullptr,
                                 scene.objects[object].objectToWorld);
        };
        const EbpiBox boxA = box(pair.a), boxB = box(pair.b);
        if (!gpu::ebpiPairBoxes({boxA.lo, boxA.hi}, {boxB.lo, boxB.hi}).overlaps) continue;
        tested.push_back(pair);
        gradientVertices += scene.meshes[scene.objects[pair.a].mesh].data.positions.size() +
                            scene.meshes[scene.objects[pair.b].mesh].data.positions.size();
    }
    if (tested.size() > s.maxPairs)
        return makeError(ErrorCode::InvalidArgument, "ebpi: " + std::to_string(tested.size()) +
                                                         " pairs with overlapping boxes, more than EbpiSettings::maxPairs (" +
                                                         std::to_string(s.maxPairs) + ")");
    if (gradientVertices > s.maxGradientVertices)
        return makeError(ErrorCode::InvalidArgument,
                         "ebpi: the tested pairs' objects have " + std::to_string(gradientVertices) +
                             " vertices, more than EbpiSettings::maxGradientVertices (" +
                             std::to_string(s.maxGradientVertices) + ")");
    return tested;
}

Status EbpiDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSource& source,
                                     uint64_t frame) {
    VulkanContext& c = *ctx;
    const EbpiSettings& s = settings;
    const CandidateLimits limits{"ebpi", "EbpiSettings", s};
    // A host's candidates are checked here, so that what the frame cannot test is refused now; the
    // GPU's pairs are checked by the setup, and what it could not test is reported with the results.
    std::vector<ObjectPair> hostPairs;
    uint32_t pairSlots = s.maxPairs, gradientSlots = s.maxGradientVertices;
    if (source.host) {
        auto listed = frameCandidatePairs(limits, uint32_t(scene.objects.size()), *source.host);
        if (!listed) return listed.status();
        auto tested = testedPairs(scene, *source.host, listed.value());
        if (!tested) return tested.status();
        hostPairs = std::move(tested.value());
        pairSlots = uint32_t(hostPairs.size());
        gradientSlots = 0;
        for (const ObjectPair& pair : hostPairs)
            gradientSlots += uint32_t(scene.meshes[scene.objects[pair.a].mesh].data.positions.size() +
                                      scene.meshes[scene.objects[pair.b].mesh].data.positions.size());
    }
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(c, frames.ring, frame));
    EbpiSlot& slot = slots[frame % slots.size()];
    // Trees and axes are keyed by mesh and object ids, which mean something else in another scene.
    if (trees.enterScene(scene)) {
        previousAxes.clear();
        for (EbpiSlot& other : slots) other.traversal.nodesValid = false;
    }
    slot.pairSlots = pairSlots;
    slot.gradientSlots = gradientSlots;
    slot.tolerance = settings.tolerance;
    slot.maxRays = settings.maxRays;
    slot.hitCapacity = settings.hitCapacity;
    if (pairSlots == 0) {  // nothing to measure: an empty frame still signals and reads back
        auto empty = std::make_unique<Graph>();
        VKC_TRY(empty->compile(slotResources(frames, frame)));
        VKC_TRY(executeFrameGraph(c, frames, frame, *empty, cmd));
        noteFrameInputs(frames, frame, scene, "ebpi");  // results() names the tested pairs' meshes
        slot.graph = std::move(empty);
        return Status::success();
    }
    ensureSceneIndices(slot.indices, scene);
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "ebpi: the scene's objects read");
    auto sceneTables = ebpiSceneTables(sceneCache, scene, slot.indices, vertexSlots);
    if (!sceneTables) return sceneTables.status();
    EbpiSceneTables& tables = sceneTables.value();
    const std::vector<gpu::EbpiMeshEdgeGpu>& edges = sceneCache.edges;
    const VkDeviceSize edgeBytes = VkDeviceSize(edges.size()) * sizeof(gpu::EbpiMeshEdgeGpu);
    if (edgeBytes > c.properties.limits.maxStorageBufferRange)
        return makeError(ErrorCode::Unsupported,
                         "ebpi: the scene's closed meshes have " + std::to_string(edges.size()) + " edges (" +
                             std::to_string(edgeBytes) + " bytes), above the device's maxStorageBufferRange " +
                             std::to_string(c.properties.limits.maxStorageBufferRange));
    std::vector<gpu::EbpiStartAxesGpu> startAxes;
    if (s.directions == EbpiDirectionChoice::Optimized)
        for (auto last = previousAxes.begin(); last != previousAxes.end();) {
            if (last->second.frame + kEbpiAxesKeptFrames < frame) {
                last = previousAxes.erase(last);
                continue;
            }
            // std::map: sorted by (a, b), as the setup searches.
            gpu::EbpiStartAxesGpu entry{last->first.first, last->first.second, 0, 0, {}};
            for (int k = 0; k < 9; ++k) entry.axes[k] = last->second.axes[k / 3][k % 3];
            startAxes.push_back(entry);
            ++last;
        }
    const bool accelStructs = ebpiUsesAccelStructs(backend);
    // Every slot's BLAS holds as many boxes as the largest mesh a slot may hold has triangles: of
    // the host's pairs, or of any closed mesh of the scene when the GPU chooses.
    uint32_t boxesPerObject = source.host ? 1u : std::max(tables.mostTriangles, 1u);
    for (const ObjectPair& pair : hostPairs)
        for (uint32_t object : {pair.a, pair.b}) boxesPerObject = std::max(boxesPerObject, tables.objects[object].triangleCount);
    if (accelStructs) {
        const VkDeviceSize boxBytes = VkDeviceSize(2 * pairSlots) * boxesPerObject * sizeof(gpu::EbpiTriangleBoxGpu);
        if (boxBytes > c.properties.limits.maxStorageBufferRange)
            return makeError(ErrorCode::Unsupported,
                             "ebpi: " + std::to_string(2 * pairSlots) + " object slots of " + std::to_string(boxesPerObject) +
                                 " triangle boxes (" + std::to_string(boxBytes) +
                                 " bytes) pass the device's maxStorageBufferRange " +
                                 std::to_string(c.properties.limits.maxStorageBufferRange) +
                                 ": lower EbpiSettings::maxPairs, pass the pairs as a CandidateSet, or use the compute backend");
        VKC_TRY(prepareEbpiAccelFrame(c, backend, slot.accel, 2 * pairSlots, boxesPerObject));
    }

    auto ownedGraph = std::make_unique<Graph>();
    Graph& graph = *ownedGraph;
    auto host = [&](const char* name, VkDeviceSize bytes) {
        return graph.createBuffer(name, GraphBufferDesc{std::max<VkDeviceSize>(bytes, 16), 0, true});
    };
    auto device = [&](const char* name, VkDeviceSize bytes, VkBufferUsageFlags usage = 0) {
        return graph.createBuffer(name, GraphBufferDesc{std::max<VkDeviceSize>(bytes, 16), usage});
    };
    HostCandidates candidates;
    if (source.host) {
        candidates = addHostCandidates(graph, "ebpi", scene, hostPairs, source.host->worldBounds);
    } else {
        auto imported = addFrameCandidates(graph, limits, scene, source);
        if (!imported) return imported.status();
        candidates = std::move(imported.value());
    }
    const uint32_t viewCount = 3 * pairSlots;
    const uint32_t pixelsPerView = s.resolution * s.resolution;
    const uint32_t tilesPerView = ebpiPyramidTiles(s.resolution, s.resolution);
    const uint32_t maxGroups = c.properties.limits.maxComputeWorkGroupCount[0];
    const BufferHandle indices = declareSceneIndices(graph, slot.indices, "ebpi");
    const std::vector<BufferHandle> vertices = importVertexBuffers(graph, vertexSlots.buffers());

    // The pairs and their tables, from the candidates on the GPU.
    EbpiSetupPassInputs setupIn;
    setupIn.verdictsPipeline = &pairVerdicts;
    setupIn.tablesPipeline = &setup;
    setupIn.set = slot.setupSet;
    setupIn.bounds = candidates.buffers.bounds;
    setupIn.candidates = candidates.buffers.pairs;
    setupIn.selection = declarePairSelection(graph, pairSelection, slot.pairSelection, "ebpi", setupIn.candidates,
                                             candidates.buffers.pairCapacity, uint32_t(scene.objects.size()),
                                             pairSlots, maxGroups);
    setupIn.sceneObjects = host("ebpi scene objects", tables.objects.size() * sizeof(gpu::EbpiSceneObjectGpu));
    setupIn.startAxes = host("ebpi start axes", startAxes.size() * sizeof(gpu::EbpiStartAxesGpu));
    setupIn.params = host("ebpi setup parameters", sizeof(gpu::EbpiSetupParamsGpu));
    setupIn.objects = device("ebpi objects", VkDeviceSize(2 * pairSlots) * sizeof(gpu::ObjectGpu));
    setupIn.traceObjects = device("ebpi trace objects", VkDeviceSize(2 * pairSlots) * sizeof(gpu::EbpiTraceObjectGpu));
    setupIn.views = device("ebpi views", VkDeviceSize(viewCount) * sizeof(gpu::EbpiViewGpu));
    setupIn.rayViews = device("ebpi ray views", VkDeviceSize(viewCount) * sizeof(gpu::EbpiRayViewGpu));
    setupIn.jobs = device("ebpi image jobs", VkDeviceSize(2 * viewCount) * sizeof(gpu::EbpiImageJobGpu));
    setupIn.volumePairs = device("ebpi pairs", VkDeviceSize(pairSlots) * sizeof(gpu::EbpiVolumePairGpu));
    setupIn.crossingPairs = device("ebpi crossing pairs", VkDeviceSize(pairSlots) * sizeof(gpu::EbpiCrossingPairGpu));
    setupIn.directionPairs = device("ebpi direction pairs", VkDeviceSize(pairSlots) * sizeof(gpu::EbpiDirectionPairGpu));
    setupIn.traversalPairs = device("ebpi traversed pairs", sizeof(gpu::PairListHeader) + VkDeviceSize(pairSlots) * 8);
    setupIn.slots = device("ebpi pair slots", sizeof(gpu::EbpiSetupStateGpu) + VkDeviceSize(pairSlots) * sizeof(gpu::EbpiSlotGpu));
    const EbpiSetupPassOutputs set = addEbpiSetupPass(graph, setupIn);

    // The directions first: every later pass reads the views' rotations they write.
    EbpiDirectionPassInputs aim;
    aim.histogramPipeline = &histogram;
    aim.directionsPipeline = &directions;
    aim.set = slot.directionSet;
    aim.pairCount = pairSlots;
    aim.mostTriangles = 2 * tables.mostTriangles;
    aim.objects = set.objects;
    aim.indices = indices;
    aim.pairs = set.directionPairs;
    aim.vertices = vertices;
    aim.histogram = device("ebpi normal histograms", VkDeviceSize(pairSlots) * gpu::kEbpiHistogramWords * 4);
    aim.views = set.views;
    aim.axes = device("ebpi axes", VkDeviceSize(pairSlots) * 9 * sizeof(double));
    aim.rayViews = set.rayViews;
    const EbpiDirectionPassOutputs aimed = addEbpiDirectionPasses(graph, aim);

    // The candidates for the transient edges: every pair of the tested pairs' triangles whose leaf
    // boxes overlap, found by the aabb-tree traversal over the vertex buffers as drawn. Its trees,
    // refit where the meshes deform, are also what the compute backend's rays traverse.
    std::optional<AabbTraversalRecording> traversal;
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
        auto added = addAabbTraversal(graph, c, trees, slot.traversal, scene, {set.traversalPairs, pairSlots}, request);
        if (!added) return added.status();
        traversal = std::move(added.value());
        const std::vector<MeshId>& layout = traversal->next.layout;
        for (uint32_t o = 0; o < tables.objects.size(); ++o)
            tables.objects[o].tree =
                uint32_t(std::find(layout.begin(), layout.end(), scene.objects[o].mesh) - layout.begin());
    }
    const bool crossings = !s.omitTransientEdges;

    EbpiImagePassInputs image;
    image.depthExtentPipeline = &depthExtent;
    image.edgeTermsPipeline = &edgeTerms;
    image.transientPipeline = crossings ? &transientTerms : nullptr;
    image.set = slot.imageSet;
    image.viewCount = viewCount;
    image.jobCount = 2 * viewCount;
    image.mostEdgesPerJob = tables.mostEdges;
    image.pixelCount = viewCount * pixelsPerView;
    image.objects = set.objects;
    image.views = aimed.views;
    image.jobs = set.jobs;
    // Persistent: uploaded again only when the scene's topology changed (as the indices).
    image.edges = graph.persistentBuffer("ebpi mesh edges", {std::max<VkDeviceSize>(edgeBytes, 16), 0, /*hostWrite*/ true});
    image.vertices = vertices;
    image.extents = device("ebpi depth extents", VkDeviceSize(2 * viewCount) * sizeof(gpu::EbpiDepthExtentGpu));
    image.pixels = device("ebpi pixels", VkDeviceSize(image.pixelCount) * sizeof(gpu::EbpiPixelGpu));
    image.status = device("ebpi image overflow flags", viewCount * 4);
    if (crossings) {
        image.indices = indices;
        image.trianglePairs = traversal->outputs.trianglePairs;
        image.traversal = traversal->outputs.state;
        image.crossingPairs = set.crossingPairs;
        image.trianglePairCapacity = s.trianglePairCapacity;
    }
    const EbpiImagePassOutputs built = addEbpiImagePasses(graph, image);

    const uint32_t tiles = viewCount * tilesPerView;
    EbpiRayPassInputs rays;
    rays.pyramidPipeline = &pyramid;
    rays.optionsPipeline = &options;
    rays.allocatePipeline = &allocate;
    rays.scanPipeline = &scan;
    rays.generatePipeline = &generate;
    rays.set = slot.raySet;
    rays.viewCount = viewCount;
    rays.mostLevels = ebpiPyramidLevels(s.resolution, s.resolution);
    rays.mostTiles = tilesPerView;
    rays.maxSplit = s.maxSplit;
    rays.maxRays = s.maxRays;
    rays.views = image.views;
    rays.rayViews = aimed.rayViews;
    rays.pixels = built.pixels;
    rays.imageStatus = built.status;
    rays.pyramid = device("ebpi pyramid", VkDeviceSize(tiles) * sizeof(gpu::EbpiPyramidTexelGpu));
    rays.tiles = device("ebpi ray tiles", VkDeviceSize(tiles) * sizeof(gpu::EbpiRayTileGpu));
    rays.costs = device("ebpi ray costs", VkDeviceSize(tiles) * sizeof(gpu::EbpiRayCostGpu));
    rays.options = device("ebpi ray options", VkDeviceSize(image.pixelCount) * sizeof(gpu::EbpiRayOptionsGpu));
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
    cast.objects = set.traceObjects;
    cast.indices = indices;
    cast.rays = planned.rays;
    cast.rayCounters = planned.counters;
    cast.vertices = image.vertices;
    if (accelStructs) {
        cast.accel = &slot.accel.structs;
        cast.objectCount = 2 * pairSlots;
        cast.mostTriangles = tables.mostTriangles;
        cast.boxesPerObject = boxesPerObject;
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
    cast.chunkRays = hitChunkRays;
    cast.hits = device("ebpi hits", VkDeviceSize(hitChunkRays) * s.hitCapacity * sizeof(gpu::EbpiHitGpu));

    EbpiVolumePassInputs sums;
    sums.volumePipeline = &volume;
    sums.set = slot.volumeSet;
    sums.rayCount = s.maxRays;
    sums.hitCapacity = s.hitCapacity;
    sums.chunkRays = hitChunkRays;
    sums.pairCount = pairSlots;
    sums.gradientSlots = gradientSlots;
    sums.maxGroups = maxGroups;
    sums.objects = cast.objects;
    sums.indices = cast.indices;
    sums.rayInfos = planned.volumeRays;
    sums.rayHits = cast.rayHits;  // bound in the descriptor set; each chunk's pass reads its versions
    sums.hits = cast.hits;
    sums.pairs = set.volumePairs;
    sums.rayCounters = planned.counters;
    sums.sums = device("ebpi volume sums", VkDeviceSize(pairSlots) * gpu::kEbpiVolumeAxes * sizeof(gpu::EbpiPairVolumeGpu));
    sums.gradients = device("ebpi gradient sums", VkDeviceSize(gradientSlots) * gpu::kEbpiVolumeAxes * 8);
    // The frame's rays in chunks whose hits fit one binding (hitChunkRays): cast, sorted and summed
    // chunk after chunk into the same sums. The GPU's ray count is not known here, so every chunk
    // up to maxRays is recorded; those past the count dispatch no work.
    EbpiTraceSetup traceSetup = addEbpiTraceSetupPasses(graph, cast);
    EbpiVolumeOutputs summed = addEbpiVolumeClearPass(graph, sums);
    BufferHandle hits = cast.hits;
    for (uint32_t firstRay = 0; firstRay < s.maxRays; firstRay += hitChunkRays) {
        const EbpiTraceOutputs traced = addEbpiTraceChunkPasses(graph, cast, traceSetup, hits, firstRay);
        hits = traced.hits;
        summed = addEbpiVolumeChunkPass(graph, sums, summed, traced.rayHits, traced.hits, firstRay);
    }

    std::vector<ReadbackCopy> copies = {
        {kEbpiReadbackViewResults, planned.results, VkDeviceSize(viewCount) * sizeof(gpu::EbpiRayViewResultGpu)},
        {kEbpiReadbackCounters, planned.counters, sizeof(gpu::EbpiRayCountersGpu)},
        {kEbpiReadbackSums, summed.sums, VkDeviceSize(pairSlots) * gpu::kEbpiVolumeAxes * sizeof(gpu::EbpiPairVolumeGpu)},
        {kEbpiReadbackGradients, summed.gradients, VkDeviceSize(gradientSlots) * gpu::kEbpiVolumeAxes * 8}};
    if (s.keepImages) {
        copies.push_back({kEbpiReadbackPixels, built.pixels, VkDeviceSize(image.pixelCount) * sizeof(gpu::EbpiPixelGpu)});
        copies.push_back({kEbpiReadbackTiles, planned.tiles, VkDeviceSize(tiles) * sizeof(gpu::EbpiRayTileGpu)});
    }
    if (crossings) copies.push_back({kEbpiReadbackTraversal, traversal->outputs.state, sizeof(gpu::AabbTraversalStateGpu)});
    copies.push_back({kEbpiReadbackAxes, aimed.axes, VkDeviceSize(pairSlots) * 9 * sizeof(double)});
    copies.push_back({kEbpiReadbackViews, aimed.views, VkDeviceSize(viewCount) * sizeof(gpu::EbpiViewGpu)});
    copies.push_back({kEbpiReadbackRayViews, aimed.rayViews, VkDeviceSize(viewCount) * sizeof(gpu::EbpiRayViewGpu)});
    copies.push_back({kEbpiReadbackSetup, set.slots,
                      sizeof(gpu::EbpiSetupStateGpu) + VkDeviceSize(pairSlots) * sizeof(gpu::EbpiSlotGpu)});
    copies.push_back({kEbpiReadbackVolumePairs, set.volumePairs, VkDeviceSize(pairSlots) * sizeof(gpu::EbpiVolumePairGpu)});
    addReadbackPass(graph, kEbpiReadbackPassName, frames.readback, importReadbackSlot(graph, "ebpi readback slot", frames.ring, frame),
                    copies);
    VKC_TRY(graph.compile(slotResources(frames, frame)));

    gpu::EbpiSetupParamsGpu params{};
    for (int k = 0; k < 3; ++k) params.candidateOrigin[k] = candidates.buffers.origin[k];
    params.tolerance = s.tolerance;
    params.maxRays = double(s.maxRays);
    params.slotCount = pairSlots;
    params.resolution = s.resolution;
    params.hitCapacity = s.hitCapacity;
    params.optimize = s.directions == EbpiDirectionChoice::Optimized ? 1u : 0u;
    params.maxGradientVertices = gradientSlots;
    params.pixelsPerView = pixelsPerView;
    params.tilesPerView = tilesPerView;
    params.startAxesCount = uint32_t(startAxes.size());
    params.objectCount = uint32_t(scene.objects.size());
    params.boxesPerObject = accelStructs ? boxesPerObject : 0u;

    VulkanGraphAllocator& allocator = *frames.allocator;
    VKC_TRY(fillHostCandidates(allocator, graph, candidates));
    VKC_TRY(uploadSceneIndices(allocator, graph, cast.indices, slot.indices));
    VKC_TRY(fillHostBuffer(allocator, graph, setupIn.sceneObjects, std::span<const gpu::EbpiSceneObjectGpu>(tables.objects)));
    VKC_TRY(fillHostBuffer(allocator, graph, setupIn.startAxes, std::span<const gpu::EbpiStartAxesGpu>(startAxes)));
    VKC_TRY(fillHostBuffer(allocator, graph, setupIn.params, std::span<const gpu::EbpiSetupParamsGpu>(&params, 1)));
    if (!(slot.edgesUploaded == sceneCache.key) || graph.created(image.edges)) {
        slot.edgesUploaded = {};  // should the upload fail, the next frame tries again
        VKC_TRY(fillHostBuffer(allocator, graph, image.edges, std::span<const gpu::EbpiMeshEdgeGpu>(edges)));
        slot.edgesUploaded = sceneCache.key;
    }
    if (traversal) VKC_TRY(bindAabbTraversal(c, allocator, graph, frames.placeholder.buffer, *traversal, slot.traversal));

    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    for (const auto& [binding, handle] : ebpiSetupBufferBindings(setupIn)) d.storageBuffer(slot.setupSet, binding, handle);
    writePairSelectionDescriptors(d, slot.pairSelection, setupIn.selection);
    for (const auto& [binding, handle] : ebpiDirectionBufferBindings(aim)) d.storageBuffer(slot.directionSet, binding, handle);
    for (const auto& [binding, handle] : ebpiImageBufferBindings(image)) d.storageBuffer(slot.imageSet, binding, handle);
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
    for (VkDescriptorSet descriptorSet : {slot.directionSet, slot.imageSet, slot.traceSet})
        writeStorageBufferArray(c, descriptorSet, gpu::kBindingVertexBuffers, vertexSlots.bindings());
    if (accelStructs) {
        writeAccelerationStructure(c, slot.traceSet, gpu::kEbpiTraceBindingTlas, slot.accel.structs.tlas);
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingBoxes, cast.boxes);
        writeBufferDescriptor(c, slot.traceSet, gpu::kEbpiTraceBindingInstances, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              slot.accel.structs.instances);
    }
    if (cast.launch.valid()) d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingLaunch, cast.launch);
    if (backend == EbpiRayBackend::Compute) {
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingTrees, cast.trees);
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingNodes, cast.nodes);
        d.storageBuffer(slot.traceSet, gpu::kEbpiTraceBindingLeaves, cast.leaves);
    }
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));

    noteFrameInputs(frames, frame, scene, "ebpi");  // results() names the tested pairs' meshes
    slot.graph = std::move(ownedGraph);
    return Status::success();
}

}  // namespace vkc
