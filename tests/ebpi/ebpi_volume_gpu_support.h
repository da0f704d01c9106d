// Runs ebpi's volume pass (passes/ebpi/ebpi_volume_passes.h) on a device for the GPU tests, on
// given hit lists (the casting's read-back, or CPU-cast ones): the objects' index lists, the
// rays' EbpiVolumeRayGpu, the hits and the pair uploaded, one graph read back through a ring slot.
#pragma once

#include "collision/frames/vulkan_graph.h"
#include "tests/support/graph_run.h"
#include "passes/ebpi/ebpi_volume_passes.h"
#include "tests/ebpi/ebpi_volume_support.h"
#include "vk/buffer.h"
#include "vk/commands.h"
#include "vk/descriptors.h"
#include "vk/pipeline.h"

#include "spirv/ebpi_volume.comp.h"

#include <string>
#include <vector>

namespace vkc::ebpi_test {

struct VolumeRun {
    EbpiVolumeFixed fixed;
    std::vector<std::string> passes;
};

inline Result<VolumeRun> runVolumeOnGpu(VulkanContext& ctx, const VolumeScene& scene, const EbpiHitLists& lists) {
    struct Resources {
        VulkanContext& ctx;
        std::vector<Buffer> buffers;
        Pipeline pipeline;
        VkDescriptorPool pool = VK_NULL_HANDLE;
        ~Resources() {
            destroyDescriptorPool(ctx, pool);
            destroyPipeline(ctx, pipeline);
            for (Buffer& b : buffers) destroyBuffer(ctx, b);
        }
        Result<Buffer> upload(const void* data, VkDeviceSize bytes, const char* name) {
            auto b = createBuffer(ctx, BufferDesc{std::max<VkDeviceSize>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  MemoryUsage::DeviceLocal, name});
            if (!b) return b;
            buffers.push_back(b.value());
            if (bytes != 0) VKC_TRY(uploadBuffer(ctx, b.value(), data, bytes));
            return b;
        }
    } res{ctx};

    std::vector<uint32_t> indices;
    std::vector<gpu::EbpiTraceObjectGpu> table;
    for (const TraceObject& o : scene.objects) {
        gpu::EbpiTraceObjectGpu entry{};
        entry.firstIndex = uint32_t(indices.size());
        entry.triangleCount = uint32_t(o.mesh->triangleCount());
        table.push_back(entry);
        indices.insert(indices.end(), o.mesh->indices.begin(), o.mesh->indices.end());
    }
    const uint32_t rayCount = uint32_t(scene.rayInfos.size());
    const uint32_t slots = scene.gradientSlots();
    auto objects = res.upload(table.data(), table.size() * sizeof(table[0]), "ebpi-volume-test-objects");
    auto indexBuffer = res.upload(indices.data(), indices.size() * 4, "ebpi-volume-test-indices");
    auto rayInfos =
        res.upload(scene.rayInfos.data(), rayCount * sizeof(gpu::EbpiVolumeRayGpu), "ebpi-volume-test-rays");
    auto rayHits = res.upload(lists.rayHits.data(), lists.rayHits.size_bytes(), "ebpi-volume-test-ray-hits");
    auto hits = res.upload(lists.hits.data(), lists.hits.size_bytes(), "ebpi-volume-test-hits");
    auto pairs = res.upload(&scene.pair, sizeof(scene.pair), "ebpi-volume-test-pairs");
    for (auto* b : {&objects, &indexBuffer, &rayInfos, &rayHits, &hits, &pairs})
        if (!*b) return b->status();
    const ReadbackLayout layout = ebpiVolumeReadbackLayout(1, slots);
    auto ring = createBuffer(ctx, BufferDesc{layout.slotBytes(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                             MemoryUsage::Readback, "ebpi-volume-test-readback"});
    if (!ring) return ring.status();
    res.buffers.push_back(ring.value());

    const PipelineLayoutDesc pipelineLayout = ebpiVolumePipelineLayout();
    auto pipeline = createComputePipeline(ctx, kSpirv_ebpi_volume_comp, pipelineLayout, {}, "ebpi-volume");
    if (!pipeline) return pipeline.status();
    res.pipeline = pipeline.value();
    const std::vector<VkDescriptorPoolSize> sizes = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 9}};
    auto pool = createDescriptorPool(ctx, 1, sizes, "ebpi-volume-test-pool");
    if (!pool) return pool.status();
    res.pool = pool.value();
    auto set = allocateDescriptorSet(ctx, res.pool, res.pipeline.setLayouts[0], "ebpi-volume-set");
    if (!set) return set.status();

    Graph graph;
    EbpiVolumePassInputs in;
    in.volumePipeline = &res.pipeline;
    in.set = set.value();
    in.rayCount = rayCount;
    in.hitCapacity = lists.hitCapacity;
    in.pairCount = 1;
    in.gradientSlots = slots;
    in.maxGroups = ctx.properties.limits.maxComputeWorkGroupCount[0];
    in.objects = graph.importBuffer("ebpi-objects", ImportedBuffer{objects->buffer});
    in.indices = graph.importBuffer("ebpi-indices", ImportedBuffer{indexBuffer->buffer});
    in.rayInfos = graph.importBuffer("ebpi-volume-rays", ImportedBuffer{rayInfos->buffer});
    in.rayHits = graph.importBuffer("ebpi-ray-hits", ImportedBuffer{rayHits->buffer});
    in.hits = graph.importBuffer("ebpi-hits", ImportedBuffer{hits->buffer});
    in.pairs = graph.importBuffer("ebpi-volume-pairs", ImportedBuffer{pairs->buffer});
    in.sums = graph.createBuffer("ebpi-volume-sums", GraphBufferDesc{layout.maxBytes(kEbpiVolumeReadbackSums)});
    const VkDeviceSize gradientBytes = std::max<VkDeviceSize>(16, layout.maxBytes(kEbpiVolumeReadbackGradients));
    in.gradients = graph.createBuffer("ebpi-volume-gradients", GraphBufferDesc{gradientBytes});
    ImportedBuffer slot{ring->buffer};
    slot.size = layout.slotBytes();
    slot.final = syncStateOf(Access::HostRead);
    in.readback = graph.importBuffer("ebpi-volume-readback", slot);
    in.readbackLayout = &layout;
    auto out = addEbpiVolumePasses(graph, in);
    if (!out) return out.status();

    VulkanGraphAllocator allocator(ctx);
    VKC_TRY(graph.compile(&allocator));
    const Buffer* bound[] = {&objects.value(), &indexBuffer.value(), &rayInfos.value(), &rayHits.value(),
                             &hits.value(), &pairs.value()};
    for (uint32_t b = 0; b < 6; ++b)
        writeBufferDescriptor(ctx, in.set, gpu::kEbpiVolumeBindingObjects + b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              *bound[b]);
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiVolumeBindingSums, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          graph.buffer(out->sums));
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiVolumeBindingGradients, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          graph.buffer(out->gradients));
    // Not read: the count is the push constant's (EbpiVolumePush::countFromBuffer 0).
    writeBufferDescriptor(ctx, in.set, gpu::kEbpiVolumeBindingRayCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                          objects.value());

    VKC_TRY(test::runGraphOnce(ctx, graph, "ebpi-volume-test"));
    VKC_TRY(invalidateBuffer(ctx, ring.value()));

    VolumeRun run;
    auto sums = layout.span<gpu::EbpiPairVolumeGpu>(ring->data, kEbpiVolumeReadbackSums, gpu::kEbpiVolumeAxes);
    run.fixed.sums.assign(sums.begin(), sums.end());
    auto words =
        layout.span<uint32_t>(ring->data, kEbpiVolumeReadbackGradients, size_t(slots) * gpu::kEbpiVolumeAxes * 2);
    run.fixed.gradientWords.assign(words.begin(), words.end());
    for (uint32_t p = 0; p < graph.passCount(); ++p) run.passes.push_back(graph.passName(p));
    return run;
}

}  // namespace vkc::ebpi_test
