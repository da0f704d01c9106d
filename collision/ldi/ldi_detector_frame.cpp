// vkc::LdiDetector, recording: the pairs' VoIs (§3.1) and their two LDI tiles, or a point query's
// one tile; the per-slot tiles and index buffers; the pass graph (passes/ldi/ldi_passes.h).
#include "collision/ldi/ldi_detector_impl.h"

#include "collision/frames/frame_warnings.h"
#include "collision/frames/candidate_pairs.h"
#include "collision/frames/vulkan_graph.h"
#include "collision/ldi/ldi_error_bound.h"
#include "collision/frames/object_gpu.h"
#include "collision/scene/scene_impl.h"
#include "collision/frames/vertex_buffer_slots.h"
#include "vk/descriptors.h"

#include <glm/gtc/matrix_transform.hpp>

namespace vkc {

namespace {

glm::mat4 toFloat(const glm::dmat4& m) { return glm::mat4(m); }

}  // namespace

void LdiDetectorImpl::writeDescriptors(const LdiSlot& slot, const Graph& graph, const LdiPassInputs& in,
                                       std::span<const VkBuffer> meshBuffers) {
    VulkanContext& c = *ctx;
    const GraphDescriptors d(c, graph, frames.placeholder.buffer);
    const DepthPeelInputs& peel = in.peel;
    d.storageBuffer(slot.drawSet, gpu::kLdiBindingTiles, peel.tileBuffer);
    d.storageBuffer(slot.tileLayersSet, gpu::kLdiBindingTileLayers, peel.layers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
                    ldiLayerBytes(settings.resolution));
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingTiles, peel.tileBuffer);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingLayers, peel.layers);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingStencilCounts, peel.stencilCounts);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingTileStats, peel.stats);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingCommands, peel.commands);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingPairResults, in.pairResults);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingDepthImage, in.depthImage);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingInsideList, in.inside);
    d.storageBuffer(slot.computeSet, gpu::kLdiBindingVolumePartials, in.volumePartials);
    // Read by ldi-drawn-bound only, and a storage buffer only in frames that have that pass.
    if (in.boundFromDrawn) d.storageBuffer(slot.computeSet, gpu::kLdiBindingIndices, peel.indices);
    for (VkDescriptorSet set : {slot.drawSet, slot.computeSet})
        writeStorageBufferArray(c, set, gpu::kBindingVertexBuffers, meshBuffers);
}

Status LdiDetectorImpl::recordTiles(VkCommandBuffer cmd, const SceneImpl& scene, LdiSlot& slot, uint64_t frame,
                                    std::span<const TileRequest> tiles, uint32_t pairCount,
                                    std::span<const PointRequest> points) {
    VulkanContext& c = *ctx;
    const LdiSettings& s = settings;
    ensureSceneIndices(slot.indices, scene);
    VertexBufferSlots vertexSlots(frames.vertexBufferCapacity, "ldi: the frame reads");
    std::vector<LdiPointTest> pointTests;
    for (const PointRequest& request : points) {
        auto used = vertexSlots.slot(request.buffer, [] { return std::string("points"); });
        if (!used) return used.status();
        pointTests.push_back(request.test);
        pointTests.back().points.slot = used.value();
    }
    std::vector<gpu::LdiTileGpu> gpuTiles(std::max<size_t>(tiles.size(), 1));
    DepthPeelInputs peel;
    // Built aside and committed only when recording succeeds: a failed record leaves the slot as its
    // previous frame left it, so that frame's results still read consistent tiles.
    std::vector<uint32_t> tileObjects;
    std::vector<LdiView> tileViews;
    bool boundFromDrawn = false;
    for (uint32_t t = 0; t < tiles.size(); ++t) {
        const SceneObject& o = scene.objects[tiles[t].object];
        const SceneMesh& mesh = scene.meshes[o.mesh];
        auto meshSlot = vertexSlots.slot(mesh.vertexBuffer, [&] { return objectLabel(scene, tiles[t].object); });
        if (!meshSlot) return meshSlot.status();
        const LdiView& view = tiles[t].view;
        gpu::LdiTileGpu& tile = gpuTiles[t];
        tile = {};
        tile.objectToClip = toFloat(view.worldToClip * glm::dmat4(o.objectToWorld));
        tile.vertices = vertexSource(mesh, meshSlot.value());
        tile.entryIsFront = view.entryIsFront ? 1u : 0u;
        tile.originX = (t % atlasColumns) * s.resolution;
        tile.originY = (t / atlasColumns) * s.resolution;
        tile.indexCount = uint32_t(mesh.data.indices.size() / 3 * 3);
        tile.firstIndex = slot.indices.firstIndex[o.mesh];
        tile.nearWorld = view.nearWorld;
        tile.farWorld = view.farWorld;
        if (const std::optional<LdiDrawnBoundRegion>& region = tiles[t].drawnBound) {
            tile.boundFromDrawn = 1;
            tile.objectToLocal = toFloat(glm::translate(glm::dmat4(1.0), -region->origin) * glm::dmat4(o.objectToWorld));
            tile.nearLo = glm::vec4(region->nearLo, region->margin);
            tile.nearHi = glm::vec4(region->nearHi, 0.0f);
            boundFromDrawn = true;
        }
        peel.tiles.push_back({tile.indexCount, tile.firstIndex});
        tileObjects.push_back(tiles[t].object);
        tileViews.push_back(view);
    }
    auto ownedGraph = std::make_unique<Graph>();
    Graph& graph = *ownedGraph;
    const VkDeviceSize perTile = VkDeviceSize(s.resolution) * s.resolution;
    const uint32_t atlasRows = (maxTiles + atlasColumns - 1) / atlasColumns;
    peel.drawSet = slot.drawSet;
    peel.tileLayersSet = slot.tileLayersSet;
    peel.computeSet = slot.computeSet;
    peel.storeOpNone = c.apiVersion >= VK_API_VERSION_1_3;
    peel.resolution = s.resolution;
    peel.layerCap = s.layerCap;
    peel.atlasColumns = atlasColumns;
    peel.maxGroupsX = c.properties.limits.maxComputeWorkGroupCount[0];
    peel.tileBuffer = graph.createBuffer("ldi tiles", {gpuTiles.size() * sizeof(gpuTiles[0]), 0, true});
    peel.indices = declareSceneIndices(graph, slot.indices, "ldi");
    peel.meshVertices = importVertexBuffers(graph, vertexSlots.buffers());
    peel.layers = graph.createBuffer("ldi layers", {VkDeviceSize(maxTiles) * ldiTileLayerBytes(s.resolution, s.layerCap)});
    // The stencil copy covers whole atlas rows: a partly filled last row is copied at full width.
    peel.stencilCounts = graph.createBuffer("ldi stencil counts", {(atlasColumns * atlasRows * perTile + 3) / 4 * 4});
    peel.stats = graph.createBuffer("ldi tile stats", {sizeof(gpu::LdiTileStatsGpu) * maxTiles});
    peel.commands = graph.createBuffer(
        "ldi layer draws",
        {std::max<VkDeviceSize>(16, ldiIndirectCommands(s.layerCap, maxTiles) * sizeof(VkDrawIndexedIndirectCommand))});
    peel.depthStencil = graph.createImage("ldi atlas", {atlasColumns * s.resolution, atlasRows * s.resolution,
                                                        depthStencilFormat});
    LdiPassInputs in;
    in.peel = std::move(peel);
    in.pipelines.peel = {&this->peel, &stencilClear, &layerCount, &indirect, &sort};
    in.pipelines.volume = &volume;
    in.pipelines.volumeSum = &volumeSum;
    in.pipelines.points = &this->points;
    in.pipelines.drawnBound = &this->drawnBound;
    in.pairCount = pairCount;
    in.insideCapacity = s.insideCapacity;
    in.pointTests = std::move(pointTests);
    in.boundFromDrawn = boundFromDrawn;
    in.pairResults = graph.createBuffer("ldi pair results", {sizeof(gpu::LdiPairResultGpu) * s.maxPairs});
    in.depthImage = graph.createBuffer("ldi intersection depth", {VkDeviceSize(s.maxPairs) * perTile * sizeof(float)});
    in.volumePartials = graph.createBuffer(
        "ldi volume partial sums", {VkDeviceSize(s.maxPairs) * ldiVolumeGroups(s.resolution) * sizeof(double)});
    in.inside = graph.createBuffer("ldi inside vertices", {ldiInsideBytes(s.insideCapacity)});
    in.readback = importReadbackSlot(graph, "ldi readback slot", frames.ring, frame);
    in.readbackLayout = &frames.readback;
    in.readImages = s.keepImages;
    addLdiPasses(graph, in);
    PersistentResources& resources = slotResources(frames, frame);
    VKC_TRY(graph.compile(resources));

    VulkanGraphAllocator& allocator = *frames.allocator;
    VKC_TRY(uploadSceneIndices(allocator, graph, in.peel.indices, slot.indices));
    VKC_TRY(fillHostBuffer(allocator, graph, in.peel.tileBuffer, std::span<const gpu::LdiTileGpu>(gpuTiles)));
    writeDescriptors(slot, graph, in, vertexSlots.buffers());
    VKC_TRY(executeFrameGraph(c, frames, frame, graph, cmd));
    slot.tileObjects = std::move(tileObjects);
    slot.tileViews = std::move(tileViews);
    slot.tileCount = uint32_t(tiles.size());
    slot.graph = std::move(ownedGraph);
    return Status::success();
}

Status LdiDetectorImpl::recordFrame(VkCommandBuffer cmd, const SceneImpl& scene, const CandidateSet& candidates,
                                    uint64_t frame) {
    // maxPairs counts pairs with a volume of interest (below), maxCandidatePairs the candidates.
    auto pairs = frameCandidatePairs({"ldi", "LdiSettings", settings}, uint32_t(scene.objects.size()), candidates);
    if (!pairs) return pairs.status();
    std::vector<LdiRecordedPair> recorded;
    std::vector<TileRequest> tiles;
    std::vector<PointRequest> points;
    for (const ObjectPair& pair : pairs.value()) {
        VKC_TRY(requireClosedSolid(scene, pair.a, "ldi"));
        VKC_TRY(requireClosedSolid(scene, pair.b, "ldi"));
        // Boxes that only touch hold no intersection volume: not tested (§3.1).
        std::optional<LdiVoi> voi = computeLdiVoi(candidates.worldBounds[pair.a], candidates.worldBounds[pair.b]);
        if (!voi) continue;
        LdiRecordedPair r;
        r.a = pair.a;
        r.b = pair.b;
        r.voi = *voi;
        recorded.push_back(r);
    }
    if (recorded.size() > settings.maxPairs)
        return makeError(ErrorCode::InvalidArgument, "ldi: " + std::to_string(recorded.size()) +
                                                         " pairs with a volume of interest, more than "
                                                         "LdiSettings::maxPairs (" +
                                                         std::to_string(settings.maxPairs) + ")");
    // The slot is free once the frame that last used it has completed on the GPU (never waits).
    VKC_TRY(ringSlotAvailable(*ctx, frames.ring, frame));
    for (uint32_t p = 0; p < recorded.size(); ++p) {
        LdiRecordedPair& r = recorded[p];
        const SceneObject& a = scene.objects[r.a];
        const SceneObject& b = scene.objects[r.b];
        const SceneMesh& meshA = scene.meshes[a.mesh];
        const SceneMesh& meshB = scene.meshes[b.mesh];
        const LdiView viewA = ldiView(r.voi, true, settings.resolution);
        const LdiView viewB = ldiView(r.voi, false, settings.resolution);
        // A bound must come from the triangles drawn: from the CPU's positions when they are those
        // (unless the host chose the GPU's bound), else from the GPU's (looser, ldi_drawn_bound.comp).
        r.boundFromDrawn = settings.errorBound == LdiErrorBound::DrawnTriangles || !meshA.cpuPositionsCurrent() ||
                           !meshB.cpuPositionsCurrent();
        std::optional<LdiDrawnBoundRegion> region;
        if (r.boundFromDrawn)
            region = ldiDrawnBoundRegion(r.voi, settings.resolution);
        else
            r.boundWithoutDepth = ldiVolumeErrorBound(meshA.data, a.objectToWorld, meshB.data, b.objectToWorld, r.voi,
                                                      settings.resolution);
        r.pixelArea = viewA.pixelU * viewA.pixelV;
        tiles.push_back({r.a, viewA, region});
        tiles.push_back({r.b, viewB, region});
        // §3.3b: each object's vertices against the other's LDI.
        for (uint32_t side = 0; side < 2; ++side) {
            const SceneObject& o = side == 0 ? a : b;
            const SceneMesh& mesh = side == 0 ? meshA : meshB;
            const LdiView& other = side == 0 ? viewB : viewA;
            LdiPointTest test;
            test.pointToTexel = toFloat(other.worldToTexel * glm::dmat4(o.objectToWorld));
            test.tile = 2 * p + (side == 0 ? 1 : 0);
            test.tag = p << 1 | side;
            test.points = vertexSource(mesh, 0);  // its slot is assigned with the tiles'
            points.push_back({mesh.vertexBuffer, test});
        }
    }
    LdiSlot& slot = slots[frame % slots.size()];
    VKC_TRY(recordTiles(cmd, scene, slot, frame, tiles, uint32_t(recorded.size()), points));
    noteFrameInputs(frames, frame, scene, pairs.value(), "ldi");
    slot.pointQuery = false;
    slot.pairs = std::move(recorded);
    return Status::success();
}

Status LdiDetectorImpl::recordPoints(VkCommandBuffer cmd, const SceneImpl& scene, uint32_t object, const Aabb& bounds,
                                     VkBuffer pointBuffer, VkDeviceSize offset, uint32_t stride, uint32_t count,
                                     uint64_t frame) {
    if (object >= scene.objects.size())
        return makeError(ErrorCode::InvalidArgument, "ldi: point query names unknown object " + std::to_string(object));
    if (offset % 4 != 0 || stride % 4 != 0 || stride < 12)
        return makeError(ErrorCode::InvalidArgument, "ldi: point offset and stride must be multiples of 4 bytes, stride >= 12");
    // The shader addresses the buffer in uint floats from offset / 4: every point must lie below 2^32 floats.
    const uint64_t lastFloat = offset / 4 + (count == 0 ? 0 : uint64_t(count - 1) * (stride / 4) + 2);
    if (lastFloat > UINT32_MAX)
        return makeError(ErrorCode::InvalidArgument,
                         "ldi: point query offset " + std::to_string(offset) + " + " + std::to_string(count) +
                             " points of stride " + std::to_string(stride) +
                             " reach beyond 16 GiB (the shader's 32-bit float index)");
    VKC_TRY(requireClosedSolid(scene, object, "ldi"));
    // The object's own box is the VoI: every face lies on the box, so rays along z from below work.
    std::optional<LdiVoi> voi = computeLdiVoi(bounds, bounds);
    if (!voi)
        return makeError(ErrorCode::InvalidArgument, objectLabel(scene, object) + ": its world box has no volume");
    voi->axis = 2;
    voi->aFromMin = true;
    VKC_TRY(ringSlotAvailable(*ctx, frames.ring, frame));
    const LdiView view = ldiView(*voi, true, settings.resolution);
    TileRequest tile = {object, view};
    LdiPointTest test;
    test.pointToTexel = toFloat(view.worldToTexel);
    test.tile = 0;
    test.tag = 0;
    test.points = {0, stride / 4, uint32_t(offset / 4), count};
    PointRequest request = {pointBuffer, test};
    LdiSlot& slot = slots[frame % slots.size()];
    VKC_TRY(recordTiles(cmd, scene, slot, frame, {&tile, 1}, 0, {&request, 1}));
    noteFrameInputs(frames, frame, scene, {}, "ldi");  // a point query's frame tests no mesh pair
    slot.pointQuery = true;
    slot.pairs.clear();
    return Status::success();
}

}  // namespace vkc
