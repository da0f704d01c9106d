// ebpi casting passes; see ebpi_trace_passes.h. GLSL: ebpi_trace_compute.comp,
// ebpi_trace_query.comp, ebpi_trace_pipeline.*, ebpi_trace_launch.comp, ebpi_trace_sort.comp
// (bindings and structs in shaders_glsl/shared/ebpi_trace.h).
#include "passes/ebpi/ebpi_trace_passes.h"

#include "passes/ebpi/ebpi_trace_pipelines.h"
#include "passes/shared/dispatch_groups.h"

#include <volk.h>

#include <algorithm>
#include <string>

namespace vkc {

static_assert(sizeof(gpu::EbpiTraceObjectGpu) == 96);
static_assert(sizeof(gpu::EbpiRayGpu) == 48);
static_assert(sizeof(gpu::EbpiHitGpu) == 32);
static_assert(sizeof(gpu::EbpiRayHitsGpu) == 8);
static_assert(sizeof(gpu::EbpiTracePush) == 24);

namespace {

uint32_t traceGroupsFor(uint32_t threads) { return groupsFor(threads, gpu::kEbpiTraceGroupSize); }

gpu::EbpiTracePush tracePush(const EbpiTracePassInputs& in, uint32_t firstRay) {
    return {in.rayCount, in.hitCapacity, in.rayCounters.valid() ? 1u : 0u, in.boxesPerObject, firstRay, chunkRaysOf(in)};
}

void bind(VkCommandBuffer cmd, const PassResources& r, const Pipeline& pipeline, VkDescriptorSet set,
          const gpu::EbpiTracePush& push) {
    r.device().vkCmdBindPipeline(cmd, pipeline.bindPoint, pipeline.pipeline);
    r.device().vkCmdBindDescriptorSets(cmd, pipeline.bindPoint, pipeline.layout, 0, 1, &set, 0, nullptr);
    r.device().vkCmdPushConstants(cmd, pipeline.layout, pipeline.stages, 0, sizeof(push), &push);
}

// At most maxGroups groups: the shaders loop over the rays with a grid stride. GPU-driven: the
// counters' first words are the dispatch (capped at kEbpiRayMaxGroups by the scan).
void dispatchRays(VkCommandBuffer cmd, const PassResources& r, const EbpiTracePassInputs& in) {
    if (in.rayCounters.valid()) {
        r.device().vkCmdDispatchIndirect(cmd, r.buffer(in.rayCounters), r.bufferOffset(in.rayCounters));
        return;
    }
    const uint32_t groups = traceGroupsFor(in.rayCount);
    if (groups != 0) r.device().vkCmdDispatch(cmd, in.maxGroups == 0 ? groups : std::min(groups, in.maxGroups), 1, 1);
}

// One invocation per ray (ebpiTraceLaunchWidth/Height); GPU-driven: the size the launch pass wrote.
void traceRays(VkCommandBuffer cmd, const PassResources& r, const EbpiTracePassInputs& in) {
    const RayTracingPipeline& p = in.pipelines->rayTracing;
    if (in.rayCounters.valid()) {
        r.device().vkCmdTraceRaysIndirectKHR(cmd, &p.raygen, &p.miss, &p.hit, &p.callable, in.launchAddress);
        return;
    }
    const uint32_t height = gpu::ebpiTraceLaunchHeight(in.rayCount);
    if (height != 0)
        r.device().vkCmdTraceRaysKHR(cmd, &p.raygen, &p.miss, &p.hit, &p.callable,
                                     gpu::ebpiTraceLaunchWidth(in.rayCount), height, 1);
}

// The counters are read as dispatch arguments and by the shaders (the count).
void readRayCounters(PassBuilder& pass, BufferHandle counters) {
    if (!counters.valid()) return;
    pass.read(counters, Access::IndirectRead);
    pass.read(counters, Access::ComputeRead);
}

// What the trace pass reads and writes, in the stage its backend's shaders run in.
struct TraceAccess {
    Access read, write, readWrite, structures;
};
TraceAccess traceAccess(EbpiRayBackend backend) {
    if (backend == EbpiRayBackend::RayTracingPipeline)
        return {Access::RayTracingRead, Access::RayTracingWrite, Access::RayTracingReadWrite,
                Access::AccelStructReadRayTracing};
    return {Access::ComputeRead, Access::ComputeWrite, Access::ComputeReadWrite, Access::AccelStructRead};
}

}  // namespace

PipelineLayoutDesc ebpiTracePipelineLayout(EbpiRayBackend backend) {
    PipelineLayoutDesc layout;
    for (uint32_t b = gpu::kEbpiTraceBindingObjects; b <= gpu::kEbpiTraceBindingHits; ++b)
        layout.bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    layout.bindings.push_back({0, gpu::kEbpiTraceBindingRayCount, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    if (ebpiUsesAccelStructs(backend)) {
        layout.bindings.push_back({0, gpu::kEbpiTraceBindingTlas, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1u});
        layout.bindings.push_back({0, gpu::kEbpiTraceBindingBoxes, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
        layout.bindings.push_back({0, gpu::kEbpiTraceBindingInstances, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    }
    if (backend == EbpiRayBackend::Compute)
        for (uint32_t b : {gpu::kEbpiTraceBindingTrees, gpu::kEbpiTraceBindingNodes, gpu::kEbpiTraceBindingLeaves})
            layout.bindings.push_back({0, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
    if (backend == EbpiRayBackend::RayTracingPipeline) {
        layout.bindings.push_back({0, gpu::kEbpiTraceBindingLaunch, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1u});
        // The ray-tracing pipeline and the compute ones (sort, boxes, launch) share the set.
        layout.extraStages =
            VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR;
    }
    layout.bindings.push_back(
        {0, gpu::kBindingVertexBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVariableDescriptorCount});
    layout.pushConstantSize = sizeof(gpu::EbpiTracePush);
    return layout;
}

ReadbackLayout ebpiTraceReadbackLayout(uint32_t rayCount, uint32_t hitCapacity) {
    ReadbackLayout layout;
    layout.add(VkDeviceSize(rayCount) * sizeof(gpu::EbpiRayHitsGpu));
    layout.add(VkDeviceSize(rayCount) * hitCapacity * sizeof(gpu::EbpiHitGpu));
    return layout;
}

uint32_t chunkRaysOf(const EbpiTracePassInputs& in) { return in.chunkRays == 0 ? in.rayCount : in.chunkRays; }

EbpiTraceSetup addEbpiTraceSetupPasses(Graph& graph, const EbpiTracePassInputs& in) {
    const gpu::EbpiTracePush push = tracePush(in, 0);
    EbpiTraceSetup setup;
    BufferHandle rayHits = in.rayHits;

    // Counts and truncation flags start at zero; hit slots are written before they are read.
    PassBuilder clear = graph.addPass(kEbpiTraceClearPassName);
    rayHits = clear.write(rayHits, Access::TransferDst);
    clear.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (in.rayCount != 0)
            r.device().vkCmdFillBuffer(cmd, r.buffer(rayHits), r.bufferOffset(rayHits),
                                       VkDeviceSize(in.rayCount) * sizeof(gpu::EbpiRayHitsGpu), 0u);
    });
    setup.rayHits = rayHits;

    // Hardware backends: the structures' buffers are host-owned (their VkAccelerationStructureKHR
    // objects are made on them before recording); the graph orders their builds and the trace.
    std::vector<BufferHandle>& structures = setup.structures;
    if (ebpiUsesAccelStructs(in.backend)) {
        const EbpiAccelStructs* accel = in.accel;
        BufferHandle scratch = graph.importBuffer("ebpi-accel-scratch", ImportedBuffer{accel->scratch.buffer});
        BufferHandle instances = graph.importBuffer("ebpi-tlas-instances", ImportedBuffer{accel->instances.buffer});
        for (size_t m = 0; m < accel->blasStorage.size(); ++m)
            structures.push_back(graph.importBuffer("ebpi-blas[" + std::to_string(m) + "]",
                                                    ImportedBuffer{accel->blasStorage[m].buffer}));
        BufferHandle tlas = graph.importBuffer("ebpi-tlas", ImportedBuffer{accel->tlasStorage.buffer});

        PassBuilder boxPass = graph.addPass(kEbpiTraceBoxesPassName);
        for (BufferHandle b : {in.objects, in.indices}) boxPass.read(b, Access::ComputeRead);
        for (BufferHandle v : in.vertices) boxPass.read(v, Access::ComputeRead);
        const BufferHandle boxes = boxPass.write(in.boxes, Access::ComputeWrite);
        instances = boxPass.write(instances, Access::ComputeWrite);
        boxPass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            if (in.objectCount == 0) return;
            bind(cmd, r, in.pipelines->boxes, in.set, push);
            const uint32_t groups = std::max(1u, traceGroupsFor(std::max(in.mostTriangles, in.boxesPerObject)));
            r.device().vkCmdDispatch(cmd, in.maxGroups == 0 ? groups : std::min(groups, in.maxGroups), in.objectCount,
                                     1);
        });

        PassBuilder blasBuild = graph.addPass(kEbpiTraceBlasPassName);
        blasBuild.read(boxes, Access::AccelStructBuildInput);
        scratch = blasBuild.write(scratch, Access::AccelStructScratch);
        for (BufferHandle& b : structures) b = blasBuild.write(b, Access::AccelStructBuild);
        blasBuild.setRecord(
            [accel](VkCommandBuffer cmd, const PassResources& r) { recordEbpiBlasBuilds(r.device(), cmd, *accel); });

        // The TLAS build reads the BLASes (declared as build accesses: read and write bits).
        PassBuilder tlasBuild = graph.addPass(kEbpiTraceTlasPassName);
        tlasBuild.read(instances, Access::AccelStructBuildInput);
        for (BufferHandle& b : structures) b = tlasBuild.write(b, Access::AccelStructBuild);
        scratch = tlasBuild.write(scratch, Access::AccelStructScratch);
        structures.push_back(tlasBuild.write(tlas, Access::AccelStructBuild));
        tlasBuild.setRecord(
            [accel](VkCommandBuffer cmd, const PassResources& r) { recordEbpiTlasBuild(r.device(), cmd, *accel); });
    }

    // Ray-tracing pipeline, GPU-driven: the launch size from the ray count, on the GPU.
    const bool rayTracing = in.backend == EbpiRayBackend::RayTracingPipeline;
    if (rayTracing && in.rayCounters.valid()) {
        PassBuilder launchPass = graph.addPass(kEbpiTraceLaunchPassName);
        launchPass.read(in.rayCounters, Access::ComputeRead);
        setup.launch = launchPass.write(in.launch, Access::ComputeWrite);
        launchPass.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
            bind(cmd, r, in.pipelines->launch, in.set, push);
            r.device().vkCmdDispatch(cmd, 1, 1, 1);
        });
    }

    return setup;
}

EbpiTraceOutputs addEbpiTraceChunkPasses(Graph& graph, const EbpiTracePassInputs& in, EbpiTraceSetup& setup,
                                         BufferHandle hits, uint32_t firstRay) {
    const gpu::EbpiTracePush push = tracePush(in, firstRay);
    const bool rayTracing = in.backend == EbpiRayBackend::RayTracingPipeline;
    const TraceAccess access = traceAccess(in.backend);
    PassBuilder trace = graph.addPass(kEbpiTracePassName);
    for (BufferHandle b : setup.structures) trace.read(b, access.structures);
    for (BufferHandle b : {in.objects, in.indices, in.rays}) trace.read(b, access.read);
    for (BufferHandle v : in.vertices) trace.read(v, access.read);
    if (in.backend == EbpiRayBackend::Compute)
        for (BufferHandle b : {in.trees, in.nodes, in.leaves}) trace.read(b, access.read);
    BufferHandle rayHits = trace.write(setup.rayHits, access.readWrite);
    hits = trace.write(hits, access.write);
    if (rayTracing) {
        if (in.rayCounters.valid()) trace.read(in.rayCounters, Access::RayTracingRead);
        if (setup.launch.valid()) trace.read(setup.launch, Access::IndirectRead);
    } else {
        readRayCounters(trace, in.rayCounters);
    }
    trace.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        if (rayTracing) {
            bind(cmd, r, in.pipelines->rayTracing.pipeline, in.set, push);
            traceRays(cmd, r, in);
        } else {
            bind(cmd, r, in.pipelines->trace, in.set, push);
            dispatchRays(cmd, r, in);
        }
    });

    PassBuilder sort = graph.addPass(kEbpiTraceSortPassName);
    rayHits = sort.write(rayHits, Access::ComputeReadWrite);
    hits = sort.write(hits, Access::ComputeReadWrite);
    readRayCounters(sort, in.rayCounters);
    sort.setRecord([=](VkCommandBuffer cmd, const PassResources& r) {
        bind(cmd, r, in.pipelines->sort, in.set, push);
        dispatchRays(cmd, r, in);
    });
    setup.rayHits = rayHits;
    return {rayHits, hits};
}

EbpiTraceOutputs addEbpiTracePasses(Graph& graph, const EbpiTracePassInputs& in) {
    EbpiTraceSetup setup = addEbpiTraceSetupPasses(graph, in);
    EbpiTraceOutputs traced = addEbpiTraceChunkPasses(graph, in, setup, in.hits, 0);
    if (in.readback.valid()) {
        const ReadbackCopy copies[] = {
            {kEbpiTraceReadbackRayHits, traced.rayHits, VkDeviceSize(in.rayCount) * sizeof(gpu::EbpiRayHitsGpu)},
            {kEbpiTraceReadbackHits, traced.hits,
             VkDeviceSize(chunkRaysOf(in)) * in.hitCapacity * sizeof(gpu::EbpiHitGpu)}};
        addReadbackPass(graph, kEbpiTraceReadbackPassName, *in.readbackLayout, in.readback, copies);
    }
    return traced;
}

}  // namespace vkc
