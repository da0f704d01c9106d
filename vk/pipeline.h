// Compute and graphics pipelines from embedded SPIR-V, with their descriptor-set layouts and
// push-constant range built from a PipelineLayoutDesc (which tests check against the shader's
// reflection: tests/support/reflection_check.h).
#pragma once

#include "vk/context.h"

#include <span>
#include <string>
#include <vector>

namespace vkc {

// A DescriptorBinding count for a runtime-sized array (GLSL `name[]`), partially bound, whose
// length each set chooses when it is allocated (allocateDescriptorSet's variableCount), up to
// maxVariableDescriptorCount(ctx). It must be its set's highest binding.
inline constexpr uint32_t kVariableDescriptorCount = ~0u;

struct DescriptorBinding {
    uint32_t set;
    uint32_t binding;
    VkDescriptorType type;
    uint32_t count;  // 0 or 1: a single descriptor; kVariableDescriptorCount: see there
};

struct PipelineLayoutDesc {
    std::vector<DescriptorBinding> bindings;  // any order; sets may have gaps
    uint32_t pushConstantSize = 0;            // bytes; 0: none
    // The length bound of its kVariableDescriptorCount binding, if any: the longest array the sets
    // allocated for these pipelines may have (drivers may size layouts and set copies by it,
    // lavapipe does); 0: maxVariableDescriptorCount(ctx), which also caps it.
    uint32_t variableDescriptorCount = 0;
    // Stages besides the pipeline's own that the sets and push constants are visible to. Pipelines
    // of different kinds that share one descriptor set (a ray-tracing pipeline and a compute one)
    // need identical set layouts, so each names the other's stages here.
    VkShaderStageFlags extraStages = 0;
};

struct SpecConstant {
    uint32_t id;
    uint32_t value;  // 32-bit: int, uint, float bits or bool (0/1)
};

struct Pipeline {
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::vector<VkDescriptorSetLayout> setLayouts;  // index = set number
    VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    VkShaderStageFlags stages = 0;  // of the layout's bindings and push constants
    uint32_t localSize[3] = {0, 0, 0};  // compute: from the SPIR-V LocalSize mode (0: not literal)
};

Result<Pipeline> createComputePipeline(VulkanContext& ctx, std::span<const uint32_t> spirv, const PipelineLayoutDesc& layout,
                                       std::span<const SpecConstant> specConstants, const char* name);

// One of the compute pipelines of a family that shares a layout (a prefix scan's steps).
struct ComputePipelineStep {
    Pipeline* out;
    std::span<const uint32_t> spirv;
    const char* name;
};
// Each step's pipeline, without specialization; on a failure the ones already made are destroyed
// (reset) and the error returned.
Status createComputePipelines(VulkanContext& ctx, std::span<const ComputePipelineStep> steps,
                              const PipelineLayoutDesc& layout);

// Defaults give a triangle list, no culling, depth off, stencil off, viewport+scissor dynamic.
struct GraphicsPipelineDesc {
    std::span<const uint32_t> vertexSpirv;
    std::span<const uint32_t> fragmentSpirv;  // empty: depth/stencil-only pipeline
    PipelineLayoutDesc layout;
    std::span<const SpecConstant> specConstants;  // applied to both stages
    std::vector<VkVertexInputBindingDescription> vertexBindings;
    std::vector<VkVertexInputAttributeDescription> vertexAttributes;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
    VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    bool depthTest = false;
    bool depthWrite = false;
    VkCompareOp depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL;
    bool depthClamp = false;  // needs the depthClamp feature (not in the base set)
    bool stencilTest = false;
    VkStencilOpState stencilFront = {};  // two-sided: front and back faces in one draw
    VkStencilOpState stencilBack = {};
    std::vector<VkFormat> colorFormats;  // dynamic rendering attachment formats
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    VkFormat stencilFormat = VK_FORMAT_UNDEFINED;
    VkColorComponentFlags colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                           VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    std::vector<VkDynamicState> extraDynamicStates;  // besides viewport and scissor
    const char* name = nullptr;
};

Result<Pipeline> createGraphicsPipeline(VulkanContext& ctx, const GraphicsPipelineDesc& desc);
void destroyPipeline(VulkanContext& ctx, Pipeline& pipeline);

// The parts every create function shares (vk/ray_tracing_pipeline.cpp uses them too): the set
// layouts and pipeline layout of `layout` for `stages` (plus its extraStages) into `pipeline`,
// and a shader module (the caller destroys it once the pipeline exists).
Status createPipelineLayout(VulkanContext& ctx, const PipelineLayoutDesc& layout, VkShaderStageFlags stages,
                            const std::string& name, Pipeline& pipeline);
Result<VkShaderModule> createShaderModule(VulkanContext& ctx, std::span<const uint32_t> spirv, const std::string& what);

// The layout of one set: the bindings of `layout` whose set is `set`, visible to `stages`.
Result<VkDescriptorSetLayout> createDescriptorSetLayout(VulkanContext& ctx, const PipelineLayoutDesc& layout, uint32_t set,
                                                        VkShaderStageFlags stages, const char* name);

// Records a dispatch covering `threads` invocations per axis (groups rounded up from localSize).
void dispatchThreads(const VulkanContext& ctx, VkCommandBuffer cmd, const Pipeline& pipeline, uint32_t x, uint32_t y = 1,
                     uint32_t z = 1);

}  // namespace vkc
