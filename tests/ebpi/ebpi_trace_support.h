// Runs ebpi's casting passes (passes/ebpi/ebpi_trace_passes.h) on a device for the GPU tests: the
// meshes in one vertex and one index buffer, the object table, the rays, the chosen backend's
// pipelines and its structures (hardware backends: acceleration structures; compute: each mesh's
// AABB tree, built as the aabb-tree method builds it), one graph read back through a ring slot.
#pragma once

#include "collision/aabb_tree/aabb_tree.h"
#include "collision/frames/vulkan_graph.h"
#include "tests/support/graph_run.h"
#include "passes/ebpi/ebpi_trace_pipelines.h"
#include "tests/ebpi/ebpi_trace_oracle.h"
#include "vk/buffer.h"
#include "vk/commands.h"
#include "vk/descriptors.h"
#include "vk/pipeline.h"


#include <cstring>
#include <span>
#include <vector>

namespace vkc::ebpi_test {

struct TraceRun {
    uint32_t hitCapacity = 0;
    std::vector<gpu::EbpiRayHitsGpu> rayHits;
    std::vector<gpu::EbpiHitGpu> hits;  // ray r's slots from r * hitCapacity
    std::vector<std::string> passes;    // the graph's pass labels, in order

    std::span<const gpu::EbpiHitGpu> hitsOf(uint32_t ray) const {
        const uint32_t kept = std::min(rayHits[ray].count, hitCapacity);
        return {hits.data() + size_t(ray) * hitCapacity, kept};
    }
};

// Everything the run creates, destroyed in reverse on scope exit.
class TraceResources {
public:
    explicit TraceResources(VulkanContext& ctx) : ctx_(ctx) {}
    ~TraceResources() {
        destroyEbpiAccelStructs(ctx_, accel);
        destroyDescriptorPool(ctx_, pool);
        destroyEbpiTracePipelines(ctx_, pipelines);
        for (Buffer& b : buffers) destroyBuffer(ctx_, b);
    }
    Result<Buffer> buffer(VkDeviceSize bytes, VkBufferUsageFlags usage, MemoryUsage memory, const char* name) {
        auto b = createBuffer(ctx_, BufferDesc{std::max<VkDeviceSize>(bytes, 16), usage, memory, name});
        if (b) buffers.push_back(b.value());
        return b;
    }
    std::vector<Buffer> buffers;
    EbpiTracePipelines pipelines;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EbpiAccelStructs accel;

private:
    VulkanContext& ctx_;
};

inline Result<TraceRun> runTrace(VulkanContext& ctx, EbpiRayBackend backend, const std::vector<TraceObject>& objects,
                                 std::span<const gpu::EbpiRayGpu> rays, uint32_t hitCapacity) {
    const bool accelStructs = ebpiUsesAccelStructs(backend);
    TraceResources res(ctx);

    // One vertex buffer and one index buffer; each object gets its own copy of its mesh, and
    // (hardware backends) its triangles' boxes in one buffer, a BLAS over each object's.
    std::vector<float> positions;
    std::vector<uint32_t> indices;
    std::vector<gpu::EbpiTraceObjectGpu> table;
    std::vector<EbpiAccelMesh> accelMeshes;
    std::vector<EbpiAccelInstance> instances;
    std::vector<gpu::AabbTreeGpu> trees;
    std::vector<gpu::AabbNodeGpu> nodes;
    std::vector<glm::uvec4> leaves;
    uint32_t boxCount = 0, mostTriangles = 0;
    for (uint32_t i = 0; i < objects.size(); ++i) {
        const MeshData& mesh = *objects[i].mesh;
        gpu::EbpiTraceObjectGpu o{};
        o.object.objectToLocal = objects[i].objectToLocal;
        o.object.vertices = {0u, 3u, uint32_t(positions.size()), uint32_t(mesh.positions.size())};
        auto tree = buildAabbTree(mesh);
        if (!tree) return tree.status();
        o.tree = uint32_t(trees.size());
        trees.push_back(tree->gpuHeader(uint32_t(nodes.size()), uint32_t(leaves.size()), o.object.vertices));
        nodes.insert(nodes.end(), tree->nodes.begin(), tree->nodes.end());
        leaves.insert(leaves.end(), tree->leaves.begin(), tree->leaves.end());
        o.firstIndex = uint32_t(indices.size());
        o.triangleCount = uint32_t(mesh.triangleCount());
        o.firstBox = boxCount;
        table.push_back(o);
        accelMeshes.push_back({VkDeviceAddress(boxCount) * sizeof(gpu::EbpiTriangleBoxGpu), o.triangleCount});
        boxCount += o.triangleCount;
        mostTriangles = std::max(mostTriangles, o.triangleCount);
        instances.push_back({i, i});
        for (const glm::vec3& p : mesh.positions) positions.insert(positions.end(), {p.x, p.y, p.z});
        indices.insert(indices.end(), mesh.indices.begin(), mesh.indices.end());
    }
    const VkBufferUsageFlags inputUsage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
        (accelStructs ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                        VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR
                  : 0);
    auto vertexBuffer = res.buffer(positions.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                   "ebpi-test-vertices");
    auto indexBuffer = res.buffer(indices.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                  "ebpi-test-indices");
    auto boxBuffer = res.buffer(boxCount * sizeof(gpu::EbpiTriangleBoxGpu), inputUsage, MemoryUsage::DeviceLocal,
                                "ebpi-test-boxes");
    auto objectBuffer = res.buffer(table.size() * sizeof(table[0]), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                   MemoryUsage::DeviceLocal, "ebpi-test-objects");
    auto rayBuffer = res.buffer(rays.size() * sizeof(rays[0]), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                MemoryUsage::DeviceLocal, "ebpi-test-rays");
    auto treeBuffer = res.buffer(trees.size() * sizeof(trees[0]), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 MemoryUsage::DeviceLocal, "ebpi-test-trees");
    auto nodeBuffer = res.buffer(nodes.size() * sizeof(nodes[0]), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 MemoryUsage::DeviceLocal, "ebpi-test-nodes");
    auto leafBuffer = res.buffer(leaves.size() * sizeof(leaves[0]), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 MemoryUsage::DeviceLocal, "ebpi-test-leaves");
    const ReadbackLayout layout = ebpiTraceReadbackLayout(uint32_t(rays.size()), hitCapacity);
    auto ring =
        res.buffer(layout.slotBytes(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, "ebpi-test-readback");
    for (auto* b : {&vertexBuffer, &indexBuffer, &boxBuffer, &objectBuffer, &rayBuffer, &treeBuffer, &nodeBuffer,
                    &leafBuffer, &ring})
        if (!*b) return b->status();
    VKC_TRY(uploadBuffer(ctx, treeBuffer.value(), trees.data(), trees.size() * sizeof(trees[0])));
    VKC_TRY(uploadBuffer(ctx, nodeBuffer.value(), nodes.data(), nodes.size() * sizeof(nodes[0])));
    VKC_TRY(uploadBuffer(ctx, leafBuffer.value(), leaves.data(), leaves.size() * sizeof(leaves[0])));
    VKC_TRY(uploadBuffer(ctx, vertexBuffer.value(), positions.data(), positions.size() * 4));
    VKC_TRY(uploadBuffer(ctx, indexBuffer.value(), indices.data(), indices.size() * 4));
    VKC_TRY(uploadBuffer(ctx, objectBuffer.value(), table.data(), table.size() * sizeof(table[0])));
    VKC_TRY(uploadBuffer(ctx, rayBuffer.value(), rays.data(), rays.size() * sizeof(rays[0])));

    if (accelStructs) {
        const VkDeviceAddress boxBase = bufferDeviceAddress(ctx, boxBuffer->buffer);
        for (EbpiAccelMesh& m : accelMeshes) m.boxes += boxBase;
        auto accel = createEbpiAccelStructs(ctx, accelMeshes, instances);
        if (!accel) return accel.status();
        res.accel = accel.value();
    }

    auto pipelines = createEbpiTracePipelines(ctx, backend, ebpiTracePipelineLayout(backend));
    if (!pipelines) return pipelines.status();
    res.pipelines = pipelines.value();
    std::vector<VkDescriptorPoolSize> sizes = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 12}};
    if (accelStructs) sizes.push_back({VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1});
    auto pool = createDescriptorPool(ctx, 1, sizes, "ebpi-test-pool");
    if (!pool) return pool.status();
    res.pool = pool.value();
    auto set = allocateDescriptorSet(ctx, res.pool, ebpiTraceSetLayout(res.pipelines), "ebpi-trace-set", 1);
    if (!set) return set.status();

    Graph graph;
    EbpiTracePassInputs in;
    in.backend = backend;
    in.pipelines = &res.pipelines;
    in.set = set.value();
    in.rayCount = uint32_t(rays.size());
    in.hitCapacity = hitCapacity;
    in.maxGroups = ctx.properties.limits.maxComputeWorkGroupCount[0];
    in.objects = graph.importBuffer("ebpi-objects", ImportedBuffer{objectBuffer->buffer});
    in.indices = graph.importBuffer("ebpi-indices", ImportedBuffer{indexBuffer->buffer});
    in.rays = graph.importBuffer("ebpi-rays", ImportedBuffer{rayBuffer->buffer});
    in.vertices = {graph.importBuffer("ebpi-vertices", ImportedBuffer{vertexBuffer->buffer})};
    in.rayHits = graph.createBuffer("ebpi-ray-hits", GraphBufferDesc{std::max<VkDeviceSize>(16, rays.size() * 8)});
    in.hits = graph.createBuffer(
        "ebpi-hits", GraphBufferDesc{std::max<VkDeviceSize>(16, rays.size() * hitCapacity * sizeof(gpu::EbpiHitGpu))});
    in.accel = accelStructs ? &res.accel : nullptr;
    in.objectCount = uint32_t(table.size());
    in.mostTriangles = mostTriangles;
    in.boxes = graph.importBuffer("ebpi-boxes", ImportedBuffer{boxBuffer->buffer});
    in.trees = graph.importBuffer("ebpi-trees", ImportedBuffer{treeBuffer->buffer});
    in.nodes = graph.importBuffer("ebpi-nodes", ImportedBuffer{nodeBuffer->buffer});
    in.leaves = graph.importBuffer("ebpi-leaves", ImportedBuffer{leafBuffer->buffer});
    ImportedBuffer slot{ring->buffer};
    slot.size = layout.slotBytes();
    slot.final = syncStateOf(Access::HostRead);
    in.readback = graph.importBuffer("ebpi-readback", slot);
    in.readbackLayout = &layout;
    const EbpiTraceOutputs out = addEbpiTracePasses(graph, in);

    VulkanGraphAllocator allocator(ctx);
    VKC_TRY(graph.compile(&allocator));
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingObjects, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          objectBuffer.value());
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingIndices, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          indexBuffer.value());
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingRays, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          rayBuffer.value());
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingRayHits, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          graph.buffer(out.rayHits));
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingHits, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          graph.buffer(out.hits));
    // Not read: the count is the push constant's (EbpiTracePush::countFromBuffer 0).
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingRayCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          rayBuffer.value());
    const VkBuffer vertexBuffers[] = {vertexBuffer->buffer};
    writeStorageBufferArray(ctx, in.set, gpu::kBindingVertexBuffers, vertexBuffers);
    if (backend == EbpiRayBackend::Compute)
        for (const auto& [binding, buffer] : {std::pair{gpu::kEbpiTraceBindingTrees, &treeBuffer.value()},
                                              std::pair{gpu::kEbpiTraceBindingNodes, &nodeBuffer.value()},
                                              std::pair{gpu::kEbpiTraceBindingLeaves, &leafBuffer.value()}})
            writeBufferDescriptor(ctx, in.set, binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, *buffer);
    if (accelStructs) {
        writeAccelerationStructure(ctx, in.set, gpu::kEbpiTraceBindingTlas, res.accel.tlas);
        writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingBoxes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              boxBuffer.value());
        writeBufferDescriptor(ctx, in.set, gpu::kEbpiTraceBindingInstances, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              res.accel.instances);
    }

    VKC_TRY(test::runGraphOnce(ctx, graph, "ebpi-trace-test"));
    VKC_TRY(invalidateBuffer(ctx, ring.value()));

    TraceRun run;
    run.hitCapacity = hitCapacity;
    auto counts = layout.span<gpu::EbpiRayHitsGpu>(ring->data, kEbpiTraceReadbackRayHits, rays.size());
    run.rayHits.assign(counts.begin(), counts.end());
    auto slots = layout.span<gpu::EbpiHitGpu>(ring->data, kEbpiTraceReadbackHits, rays.size() * hitCapacity);
    run.hits.assign(slots.begin(), slots.end());
    for (uint32_t p = 0; p < graph.passCount(); ++p) run.passes.push_back(graph.passName(p));
    return run;
}

}  // namespace vkc::ebpi_test
