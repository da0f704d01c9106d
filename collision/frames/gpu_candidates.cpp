// A frame's candidates on the GPU; see gpu_candidates.h.
#include "collision/frames/gpu_candidates.h"

#include "collision/scene/object_transform.h"
#include "collision/scene/scene_impl.h"
#include "passes/broadphase/broadphase_passes.h"
#include "shaders_glsl/shared/float_order.h"

#include <cmath>

namespace vkc {

namespace {

BufferHandle importWritten(Graph& graph, std::string name, VkBuffer buffer, VkDeviceSize bytes) {
    ImportedBuffer imported;
    imported.buffer = buffer;
    imported.size = bytes;
    // The broadphase's passes wrote them in compute and copied them out; nothing writes them after.
    imported.initial = {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    return graph.importBuffer(std::move(name), imported);
}

}  // namespace

CandidateBuffers importCandidates(Graph& graph, const std::string& method, const GpuCandidates& candidates) {
    CandidateBuffers out;
    out.bounds = importWritten(graph, method + " candidate bounds", candidates.bounds, candidates.boundsBytes);
    out.pairs = importWritten(graph, method + " candidate pairs", candidates.pairs, candidates.pairsBytes);
    out.origin = candidates.origin;
    out.objectCount = candidates.objectCount;
    out.pairCapacity = candidates.pairCapacity;
    return out;
}

HostCandidates addHostCandidates(Graph& graph, const std::string& method, const SceneImpl& scene,
                                 std::span<const ObjectPair> pairs, std::span<const Aabb> worldBounds) {
    HostCandidates out;
    const uint32_t n = uint32_t(scene.objects.size());
    const glm::dvec3 origin = candidateOrigin(scene);
    out.bounds.resize(size_t(n) * 6);
    for (uint32_t i = 0; i < n; ++i)
        for (int axis = 0; axis < 3; ++axis) {
            out.bounds[i * 3 + axis] = gpu::encodeOrderedFloat(floatAtMost(double(worldBounds[i].min[axis]) - origin[axis]));
            out.bounds[(n + i) * 3 + axis] =
                gpu::encodeOrderedFloat(floatAtLeast(double(worldBounds[i].max[axis]) - origin[axis]));
        }
    out.pairs = candidateListWords(pairs);

    CandidateBuffers& b = out.buffers;
    b.bounds = graph.createBuffer(method + " candidate bounds",
                                  {std::max<VkDeviceSize>(16, out.bounds.size() * 4), 0, /*hostWrite*/ true});
    b.pairs = graph.createBuffer(method + " candidate pairs", {out.pairs.size() * 4, 0, /*hostWrite*/ true});
    b.origin = origin;
    b.objectCount = n;
    b.pairCapacity = uint32_t(pairs.size());
    return out;
}

std::vector<uint32_t> candidateListWords(std::span<const ObjectPair> pairs) {
    const uint32_t count = uint32_t(pairs.size());
    std::vector<uint32_t> words = {count, count, 0u, 0u};
    words.reserve(4 + 2 * pairs.size());
    for (const ObjectPair& pair : pairs) words.insert(words.end(), {pair.a, pair.b});
    return words;
}

Result<HostCandidates> addFrameCandidates(Graph& graph, const CandidateLimits& limits, const SceneImpl& scene,
                                          const CandidateSource& source) {
    const std::string method = limits.method;
    const uint32_t objectCount = uint32_t(scene.objects.size());
    if (source.host) {
        auto pairs = frameCandidatePairs(limits, objectCount, *source.host);
        if (!pairs) return pairs.status();
        HostCandidates host = addHostCandidates(graph, method, scene, pairs.value(), source.host->worldBounds);
        host.checked = std::move(pairs.value());
        return host;
    }
    VKC_TRY(checkObjectCount(limits, objectCount));
    if (source.gpu->objectCount != objectCount)
        return makeError(ErrorCode::InvalidArgument, method + ": the broadphase's frame boxed " +
                                                         std::to_string(source.gpu->objectCount) + " objects, the scene has " +
                                                         std::to_string(objectCount) + " (record both for the same scene)");
    HostCandidates imported;
    imported.buffers = importCandidates(graph, method, *source.gpu);
    return imported;
}

Status fillHostCandidates(VulkanGraphAllocator& allocator, const Graph& graph, const HostCandidates& candidates) {
    if (candidates.pairs.empty()) return Status::success();  // imported: the broadphase wrote them
    VKC_TRY(fillHostBuffer(allocator, graph, candidates.buffers.bounds, std::span<const uint32_t>(candidates.bounds)));
    return fillHostBuffer(allocator, graph, candidates.buffers.pairs, std::span<const uint32_t>(candidates.pairs));
}

glm::dvec3 candidateOrigin(const SceneImpl& scene) {
    CandidateOrigin origin;
    for (const SceneObject& object : scene.objects) origin.add(object.objectToWorld);
    return origin.centre();
}

}  // namespace vkc
