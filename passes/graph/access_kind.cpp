// The access-kind table: the single place where "how a pass uses a resource" becomes Vulkan
// synchronization2 stages, access masks, image layouts and usage flags (see access_kind.h).
// Stages are kept as narrow as the kind allows so barriers do not over-serialise; a kind that
// may run in several stages (uniforms, sampling) lists all of them, which is correct but wider.
#include "passes/graph/access_kind.h"

#include <cassert>

namespace vkc {
namespace {

constexpr VkPipelineStageFlags2 kShaderStages = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
// Builds read input and scratch through device addresses, so those buffers need it.
constexpr VkBufferUsageFlags kAddress = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

// Indexed by Access; the static_assert below keeps it in step with the enum.
constexpr AccessInfo kAccessTable[] = {
    {"ComputeRead", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
     VK_IMAGE_LAYOUT_GENERAL, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT,
     false, true, true, true},
    {"ComputeWrite", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
     VK_IMAGE_LAYOUT_GENERAL, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT,
     true, false, true, true},
    {"ComputeReadWrite", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT, true, true, true, true},
    {"VertexRead", VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT,
     VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
     VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT, 0, false, true, true, false},
    {"VertexShaderRead", VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
     VK_IMAGE_LAYOUT_GENERAL, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT,
     false, true, true, true},
    {"FragmentRead", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
     VK_IMAGE_LAYOUT_GENERAL, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT,
     false, true, true, true},
    {"FragmentWrite", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
     VK_IMAGE_LAYOUT_GENERAL, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT,
     true, false, true, true},
    {"FragmentReadWrite", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL,
     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_IMAGE_USAGE_STORAGE_BIT, true, true, true, true},
    {"UniformRead", kShaderStages, VK_ACCESS_2_UNIFORM_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
     VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, 0, false, true, true, false},
    // Indirect-count draws read their count in the same stage with the same access.
    {"IndirectRead", VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
     VK_IMAGE_LAYOUT_UNDEFINED, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, 0, false, true, true, false},
    // Blending and load ops read the attachment, so the access includes the read bit; the graph
    // cannot see load ops and assumes clear/don't-care (the contents are not required).
    {"ColorAttachment", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
     VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, true, false,
     false, true},
    {"DepthStencilAttachment", kFragmentTests,
     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 0, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
     true, false, false, true},
    {"DepthStencilReadOnly", kFragmentTests, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
     VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, 0, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
     false, true, false, true},
    {"SampledRead", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
     VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
     VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, VK_IMAGE_USAGE_SAMPLED_BIT, false, true, true, true},
    // ALL_TRANSFER covers copies, blits, fills and clears alike.
    {"TransferSrc", VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
     VK_IMAGE_USAGE_TRANSFER_SRC_BIT, false, true, true, true},
    {"TransferDst", VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
     VK_IMAGE_USAGE_TRANSFER_DST_BIT, true, false, true, true},
    // A HOST-stage barrier in the command buffer is what makes device writes visible to a mapped
    // read-back after the fence; the host side needs no usage flag.
    {"HostRead", VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, VK_IMAGE_LAYOUT_GENERAL, 0, 0,
     false, true, true, true},
    {"AccelStructRead", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR,
     VK_IMAGE_LAYOUT_UNDEFINED, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR, 0, false, true,
     true, false},
    // Separate from AccelStructRead because naming the ray-tracing stage needs the
    // rayTracingPipeline feature enabled, which ray-query devices may not have.
    {"AccelStructReadRayTracing", VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR,
     VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR, VK_IMAGE_LAYOUT_UNDEFINED,
     VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR, 0, false, true, true, false},
    {"RayTracingRead", VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
     VK_IMAGE_LAYOUT_UNDEFINED, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, false, true, true, false},
    {"RayTracingWrite", VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
     VK_IMAGE_LAYOUT_UNDEFINED, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, true, false, true, false},
    {"RayTracingReadWrite", VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR,
     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, true, true, true, false},
    {"AccelStructBuild", VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
     VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR | VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
     VK_IMAGE_LAYOUT_UNDEFINED, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR | kAddress, 0, true,
     false, true, false},
    // The spec names SHADER_READ as the access for build inputs.
    {"AccelStructBuildInput", VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
     VK_ACCESS_2_SHADER_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
     VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR | kAddress, 0, false, true, true,
     false},
    {"AccelStructScratch", VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
     VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR | VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
     VK_IMAGE_LAYOUT_UNDEFINED, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | kAddress, 0, true, false, true, false},
};
static_assert(sizeof(kAccessTable) / sizeof(kAccessTable[0]) == kAccessKindCount,
              "kAccessTable needs one row per Access kind, in enum order");

constexpr VkAccessFlags2 kWriteBits =
    VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
    VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
    VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT |
    VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR;

}  // namespace

const AccessInfo& accessInfo(Access kind) {
    assert(uint32_t(kind) < kAccessKindCount);
    return kAccessTable[uint32_t(kind)];
}

SyncState syncStateOf(Access kind) {
    const AccessInfo& info = accessInfo(kind);
    return SyncState{info.stages, info.access, info.layout};
}

VkAccessFlags2 writeAccessBits(VkAccessFlags2 access) { return access & kWriteBits; }

}  // namespace vkc
