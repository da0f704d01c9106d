// Pipelines, layouts and shader modules. Every pipeline uses dynamic rendering (no render-pass
// objects) and dynamic viewport/scissor, so one pipeline serves any target size.
#include "vk/pipeline.h"

#include "vk/debug.h"
#include "vk/descriptors.h"

#include <algorithm>
#include <string>

namespace vkc {

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kExecutionModeLocalSize = 17;

void readLocalSize(std::span<const uint32_t> spirv, uint32_t out[3]) {
    for (size_t i = 5; i < spirv.size();) {
        uint32_t op = spirv[i] & 0xffff, words = spirv[i] >> 16;
        if (words == 0) break;
        if (op == kOpExecutionMode && words >= 6 && spirv[i + 2] == kExecutionModeLocalSize) {
            out[0] = spirv[i + 3];
            out[1] = spirv[i + 4];
            out[2] = spirv[i + 5];
            return;
        }
        i += words;
    }
}

Status checkSpirv(std::span<const uint32_t> spirv, const std::string& what) {
    if (spirv.size() < 5 || spirv[0] != kSpirvMagic)
        return makeError(ErrorCode::InvalidArgument, what + ": not a SPIR-V module (" + std::to_string(spirv.size()) + " words)");
    return Status::success();
}

// Specialization data that outlives the VkSpecializationInfo pointing at it.
struct Specialization {
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> data;
    VkSpecializationInfo info = {};

    explicit Specialization(std::span<const SpecConstant> constants) {
        for (const SpecConstant& c : constants) {
            entries.push_back({c.id, uint32_t(data.size() * sizeof(uint32_t)), sizeof(uint32_t)});
            data.push_back(c.value);
        }
        info.mapEntryCount = uint32_t(entries.size());
        info.pMapEntries = entries.data();
        info.dataSize = data.size() * sizeof(uint32_t);
        info.pData = data.data();
    }
};

}  // namespace

Result<VkShaderModule> createShaderModule(VulkanContext& ctx, std::span<const uint32_t> spirv, const std::string& what) {
    VKC_TRY(checkSpirv(spirv, what));
    VkShaderModuleCreateInfo info = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = spirv.size() * sizeof(uint32_t);
    info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    VKC_TRY(checkVk(ctx.vkd.vkCreateShaderModule(ctx.device, &info, ctx.allocationCallbacks, &module),
                    ("vkCreateShaderModule(" + what + ")").c_str()));
    return module;
}

Status createPipelineLayout(VulkanContext& ctx, const PipelineLayoutDesc& desc, VkShaderStageFlags stages, const std::string& name,
                    Pipeline& pipeline) {
    stages |= desc.extraStages;
    pipeline.stages = stages;
    uint32_t setCount = 0;
    for (const DescriptorBinding& b : desc.bindings) setCount = std::max(setCount, b.set + 1);
    for (uint32_t set = 0; set < setCount; ++set) {
        std::string setName = name + " set " + std::to_string(set);
        Result<VkDescriptorSetLayout> layout = createDescriptorSetLayout(ctx, desc, set, stages, setName.c_str());
        if (!layout) return layout.status();
        pipeline.setLayouts.push_back(layout.value());
    }
    VkPushConstantRange range = {stages, 0, desc.pushConstantSize};
    VkPipelineLayoutCreateInfo info = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = uint32_t(pipeline.setLayouts.size());
    info.pSetLayouts = pipeline.setLayouts.data();
    info.pushConstantRangeCount = desc.pushConstantSize ? 1 : 0;
    info.pPushConstantRanges = &range;
    VKC_TRY(checkVk(ctx.vkd.vkCreatePipelineLayout(ctx.device, &info, ctx.allocationCallbacks, &pipeline.layout),
                    ("vkCreatePipelineLayout(" + name + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_PIPELINE_LAYOUT, pipeline.layout, name.c_str());
    return Status::success();
}


Result<VkDescriptorSetLayout> createDescriptorSetLayout(VulkanContext& ctx, const PipelineLayoutDesc& layout, uint32_t set,
                                                        VkShaderStageFlags stages, const char* name) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    std::vector<VkDescriptorBindingFlags> flags;
    for (const DescriptorBinding& b : layout.bindings) {
        if (b.set != set) continue;
        bool duplicate = std::any_of(bindings.begin(), bindings.end(),
                                     [&](const VkDescriptorSetLayoutBinding& x) { return x.binding == b.binding; });
        if (duplicate)
            return makeError(ErrorCode::InvalidArgument, std::string(name ? name : "layout") + ": binding " +
                                                             std::to_string(b.binding) + " listed twice");
        const bool variable = b.count == kVariableDescriptorCount;
        const uint32_t deviceMax = maxVariableDescriptorCount(ctx);
        const uint32_t bound = layout.variableDescriptorCount ? std::min(layout.variableDescriptorCount, deviceMax)
                                                              : deviceMax;
        const uint32_t count = variable ? bound : std::max(b.count, 1u);
        bindings.push_back({b.binding, b.type, count, stages, nullptr});
        // Partially bound: a frame writes only the elements it reads, and later frames may leave
        // stale ones behind (buffers since destroyed) that no shader reaches.
        flags.push_back(variable ? VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
                                       VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT
                                 : 0);
    }
    VkDescriptorSetLayoutBindingFlagsCreateInfo flagsInfo = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
    flagsInfo.bindingCount = uint32_t(flags.size());
    flagsInfo.pBindingFlags = flags.data();
    VkDescriptorSetLayoutCreateInfo info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.pNext = &flagsInfo;
    info.bindingCount = uint32_t(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout result = VK_NULL_HANDLE;
    VKC_TRY(checkVk(ctx.vkd.vkCreateDescriptorSetLayout(ctx.device, &info, ctx.allocationCallbacks, &result),
                    (std::string("vkCreateDescriptorSetLayout(") + (name ? name : "unnamed") + ")").c_str()));
    setObjectName(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, result, name);
    return result;
}

Result<Pipeline> createComputePipeline(VulkanContext& ctx, std::span<const uint32_t> spirv, const PipelineLayoutDesc& layout,
                                       std::span<const SpecConstant> specConstants, const char* name) {
    std::string pipelineName = name ? name : "unnamed compute pipeline";
    Pipeline pipeline;
    pipeline.bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    VKC_TRY(checkSpirv(spirv, pipelineName));
    readLocalSize(spirv, pipeline.localSize);
    Status status = createPipelineLayout(ctx, layout, VK_SHADER_STAGE_COMPUTE_BIT, pipelineName, pipeline);
    Result<VkShaderModule> module = status ? createShaderModule(ctx, spirv, pipelineName) : Result<VkShaderModule>(status);
    if (!module) {
        destroyPipeline(ctx, pipeline);
        return module.status();
    }
    Specialization specialization(specConstants);
    VkComputePipelineCreateInfo info = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.value();
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization.info;
    info.layout = pipeline.layout;
    status = checkVk(ctx.vkd.vkCreateComputePipelines(ctx.device, VK_NULL_HANDLE, 1, &info, ctx.allocationCallbacks,
                                                      &pipeline.pipeline),
                     ("vkCreateComputePipelines(" + pipelineName + ")").c_str());
    ctx.vkd.vkDestroyShaderModule(ctx.device, module.value(), ctx.allocationCallbacks);
    if (!status) {
        destroyPipeline(ctx, pipeline);
        return status;
    }
    setObjectName(ctx, VK_OBJECT_TYPE_PIPELINE, pipeline.pipeline, pipelineName.c_str());
    return pipeline;
}

Result<Pipeline> createGraphicsPipeline(VulkanContext& ctx, const GraphicsPipelineDesc& desc) {
    std::string name = desc.name ? desc.name : "unnamed graphics pipeline";
    Pipeline pipeline;
    pipeline.bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT;
    if (!desc.fragmentSpirv.empty()) stages |= VK_SHADER_STAGE_FRAGMENT_BIT;
    VKC_TRY(createPipelineLayout(ctx, desc.layout, stages, name, pipeline));

    Specialization specialization(desc.specConstants);
    VkShaderModule modules[2] = {};
    VkPipelineShaderStageCreateInfo stageInfos[2] = {};
    uint32_t stageCount = 0;
    Status status = Status::success();
    for (auto [spirv, stage] : {std::pair{desc.vertexSpirv, VK_SHADER_STAGE_VERTEX_BIT},
                                std::pair{desc.fragmentSpirv, VK_SHADER_STAGE_FRAGMENT_BIT}}) {
        if (spirv.empty() && stage == VK_SHADER_STAGE_FRAGMENT_BIT) continue;
        Result<VkShaderModule> module = createShaderModule(
            ctx, spirv, name + (stage == VK_SHADER_STAGE_VERTEX_BIT ? " vertex" : " fragment"));
        if (!module) {
            status = module.status();
            break;
        }
        modules[stageCount] = module.value();
        VkPipelineShaderStageCreateInfo& s = stageInfos[stageCount++];
        s.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        s.stage = stage;
        s.module = module.value();
        s.pName = "main";
        s.pSpecializationInfo = &specialization.info;
    }

    if (status) {
        VkPipelineVertexInputStateCreateInfo vertexInput = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        vertexInput.vertexBindingDescriptionCount = uint32_t(desc.vertexBindings.size());
        vertexInput.pVertexBindingDescriptions = desc.vertexBindings.data();
        vertexInput.vertexAttributeDescriptionCount = uint32_t(desc.vertexAttributes.size());
        vertexInput.pVertexAttributeDescriptions = desc.vertexAttributes.data();
        VkPipelineInputAssemblyStateCreateInfo inputAssembly = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
        inputAssembly.topology = desc.topology;
        VkPipelineViewportStateCreateInfo viewport = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
        viewport.viewportCount = 1;
        viewport.scissorCount = 1;
        VkPipelineRasterizationStateCreateInfo raster = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
        raster.depthClampEnable = desc.depthClamp;
        raster.polygonMode = VK_POLYGON_MODE_FILL;
        raster.cullMode = desc.cullMode;
        raster.frontFace = desc.frontFace;
        raster.lineWidth = 1.0f;
        VkPipelineMultisampleStateCreateInfo multisample = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
        multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
        VkPipelineDepthStencilStateCreateInfo depthStencil = {VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
        depthStencil.depthTestEnable = desc.depthTest;
        depthStencil.depthWriteEnable = desc.depthWrite;
        depthStencil.depthCompareOp = desc.depthCompare;
        depthStencil.stencilTestEnable = desc.stencilTest;
        depthStencil.front = desc.stencilFront;
        depthStencil.back = desc.stencilBack;
        std::vector<VkPipelineColorBlendAttachmentState> blend(desc.colorFormats.size());
        for (auto& b : blend) b.colorWriteMask = desc.colorWriteMask;
        VkPipelineColorBlendStateCreateInfo colorBlend = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
        colorBlend.attachmentCount = uint32_t(blend.size());
        colorBlend.pAttachments = blend.data();
        std::vector<VkDynamicState> dynamicStates = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
        dynamicStates.insert(dynamicStates.end(), desc.extraDynamicStates.begin(), desc.extraDynamicStates.end());
        VkPipelineDynamicStateCreateInfo dynamic = {VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
        dynamic.dynamicStateCount = uint32_t(dynamicStates.size());
        dynamic.pDynamicStates = dynamicStates.data();
        VkPipelineRenderingCreateInfo rendering = {VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
        rendering.colorAttachmentCount = uint32_t(desc.colorFormats.size());
        rendering.pColorAttachmentFormats = desc.colorFormats.data();
        rendering.depthAttachmentFormat = desc.depthFormat;
        rendering.stencilAttachmentFormat = desc.stencilFormat;

        VkGraphicsPipelineCreateInfo info = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
        info.pNext = &rendering;
        info.stageCount = stageCount;
        info.pStages = stageInfos;
        info.pVertexInputState = &vertexInput;
        info.pInputAssemblyState = &inputAssembly;
        info.pViewportState = &viewport;
        info.pRasterizationState = &raster;
        info.pMultisampleState = &multisample;
        info.pDepthStencilState = &depthStencil;
        info.pColorBlendState = &colorBlend;
        info.pDynamicState = &dynamic;
        info.layout = pipeline.layout;
        status = checkVk(ctx.vkd.vkCreateGraphicsPipelines(ctx.device, VK_NULL_HANDLE, 1, &info, ctx.allocationCallbacks,
                                                           &pipeline.pipeline),
                         ("vkCreateGraphicsPipelines(" + name + ")").c_str());
    }
    for (uint32_t i = 0; i < stageCount; ++i) ctx.vkd.vkDestroyShaderModule(ctx.device, modules[i], ctx.allocationCallbacks);
    if (!status) {
        destroyPipeline(ctx, pipeline);
        return status;
    }
    setObjectName(ctx, VK_OBJECT_TYPE_PIPELINE, pipeline.pipeline, name.c_str());
    return pipeline;
}

Status createComputePipelines(VulkanContext& ctx, std::span<const ComputePipelineStep> steps,
                              const PipelineLayoutDesc& layout) {
    for (size_t i = 0; i < steps.size(); ++i) {
        auto made = createComputePipeline(ctx, steps[i].spirv, layout, {}, steps[i].name);
        if (!made) {
            for (size_t j = 0; j < i; ++j) destroyPipeline(ctx, *steps[j].out);
            return made.status();
        }
        *steps[i].out = std::move(made.value());
    }
    return Status::success();
}

void destroyPipeline(VulkanContext& ctx, Pipeline& pipeline) {
    if (pipeline.pipeline) ctx.vkd.vkDestroyPipeline(ctx.device, pipeline.pipeline, ctx.allocationCallbacks);
    if (pipeline.layout) ctx.vkd.vkDestroyPipelineLayout(ctx.device, pipeline.layout, ctx.allocationCallbacks);
    for (VkDescriptorSetLayout layout : pipeline.setLayouts)
        ctx.vkd.vkDestroyDescriptorSetLayout(ctx.device, layout, ctx.allocationCallbacks);
    pipeline = Pipeline{};
}

void dispatchThreads(const VulkanContext& ctx, VkCommandBuffer cmd, const Pipeline& pipeline, uint32_t x, uint32_t y,
                     uint32_t z) {
    auto groups = [](uint32_t threads, uint32_t local) { return local ? (threads + local - 1) / local : threads; };
    ctx.vkd.vkCmdDispatch(cmd, groups(x, pipeline.localSize[0]), groups(y, pipeline.localSize[1]),
                          groups(z, pipeline.localSize[2]));
}

}  // namespace vkc
