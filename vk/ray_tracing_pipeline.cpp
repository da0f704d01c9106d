// Ray-tracing pipeline and shader binding table; see ray_tracing_pipeline.h.
#include "vk/ray_tracing_pipeline.h"

#include "vk/debug.h"

#include <array>
#include <cstring>
#include <string>

namespace vkc {

namespace {

VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment) { return (value + alignment - 1) / alignment * alignment; }

VkPhysicalDeviceRayTracingPipelinePropertiesKHR rayTracingProperties(const VulkanContext& ctx) {
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &rt;
    ctx.vki.vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &properties);
    return rt;
}

// Group i's handle at record i of the table; each region one record.
Status writeShaderBindingTable(VulkanContext& ctx, const std::string& name, uint32_t groupCount,
                               RayTracingPipeline& out) {
    const VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt = rayTracingProperties(ctx);
    const uint32_t handleSize = rt.shaderGroupHandleSize;
    const VkDeviceSize record = alignUp(handleSize, rt.shaderGroupBaseAlignment);
    std::vector<uint8_t> handles(size_t(groupCount) * handleSize);
    VKC_TRY(checkVk(ctx.vkd.vkGetRayTracingShaderGroupHandlesKHR(ctx.device, out.pipeline.pipeline, 0, groupCount,
                                                                 handles.size(), handles.data()),
                    ("vkGetRayTracingShaderGroupHandlesKHR(" + name + ")").c_str()));
    // The table starts at the first address aligned to shaderGroupBaseAlignment: a buffer's own
    // alignment may be smaller.
    const std::string tableName = name + " shader binding table";
    auto table = createBuffer(ctx, BufferDesc{record * groupCount + rt.shaderGroupBaseAlignment,
                                              VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR |
                                                  VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                              MemoryUsage::Upload, tableName.c_str()});
    if (!table) return table.status();
    out.shaderBindingTable = table.value();
    VkBufferDeviceAddressInfo addressInfo{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    addressInfo.buffer = out.shaderBindingTable.buffer;
    const VkDeviceAddress address = ctx.vkd.vkGetBufferDeviceAddress(ctx.device, &addressInfo);
    const VkDeviceAddress base = alignUp(address, rt.shaderGroupBaseAlignment);
    for (uint32_t g = 0; g < groupCount; ++g)
        std::memcpy(static_cast<uint8_t*>(out.shaderBindingTable.data) + (base - address) + g * record,
                    handles.data() + g * handleSize, handleSize);
    VKC_TRY(flushBuffer(ctx, out.shaderBindingTable));
    out.raygen = {base, record, record};
    out.miss = {base + record, record, record};
    out.hit = {base + 2 * record, record, record};
    return Status::success();
}

}  // namespace

Result<RayTracingPipeline> createRayTracingPipeline(VulkanContext& ctx, const RayTracingPipelineDesc& desc) {
    const std::string name = desc.name ? desc.name : "unnamed ray-tracing pipeline";
    if (!ctx.hasRayTracingPipeline)
        return makeError(ErrorCode::MissingFeature, name + ": the device has no ray-tracing pipelines enabled");
    RayTracingPipeline out;
    out.pipeline.bindPoint = VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR;
    VKC_TRY(createPipelineLayout(ctx, desc.layout, VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR,
                                 name, out.pipeline));

    const std::array<std::pair<std::span<const uint32_t>, VkShaderStageFlagBits>, 3> shaders = {{
        {desc.raygenSpirv, VK_SHADER_STAGE_RAYGEN_BIT_KHR},
        {desc.missSpirv, VK_SHADER_STAGE_MISS_BIT_KHR},
        {desc.intersectionSpirv, VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
    }};
    std::array<VkShaderModule, 3> modules{};
    std::array<VkPipelineShaderStageCreateInfo, 3> stages{};
    Status status = Status::success();
    for (size_t i = 0; i < shaders.size() && status; ++i) {
        Result<VkShaderModule> module = createShaderModule(ctx, shaders[i].first, name + " stage " + std::to_string(i));
        if (!module) {
            status = module.status();
            break;
        }
        modules[i] = module.value();
        stages[i] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        stages[i].stage = shaders[i].second;
        stages[i].module = modules[i];
        stages[i].pName = "main";
    }
    // Groups in table order: ray generation, miss, then the procedural hit group.
    std::array<VkRayTracingShaderGroupCreateInfoKHR, 3> groups{};
    for (uint32_t g = 0; g < groups.size(); ++g) {
        groups[g] = {VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR};
        groups[g].type = g < 2 ? VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR
                               : VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR;
        groups[g].generalShader = g < 2 ? g : VK_SHADER_UNUSED_KHR;
        groups[g].closestHitShader = VK_SHADER_UNUSED_KHR;
        groups[g].anyHitShader = VK_SHADER_UNUSED_KHR;
        groups[g].intersectionShader = g < 2 ? VK_SHADER_UNUSED_KHR : 2;
    }
    if (status) {
        VkRayTracingPipelineCreateInfoKHR info{VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR};
        info.stageCount = uint32_t(stages.size());
        info.pStages = stages.data();
        info.groupCount = uint32_t(groups.size());
        info.pGroups = groups.data();
        info.maxPipelineRayRecursionDepth = 1;
        info.layout = out.pipeline.layout;
        status = checkVk(ctx.vkd.vkCreateRayTracingPipelinesKHR(ctx.device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info,
                                                                ctx.allocationCallbacks, &out.pipeline.pipeline),
                         ("vkCreateRayTracingPipelinesKHR(" + name + ")").c_str());
    }
    for (VkShaderModule m : modules)
        if (m) ctx.vkd.vkDestroyShaderModule(ctx.device, m, ctx.allocationCallbacks);
    if (status) {
        setObjectName(ctx, VK_OBJECT_TYPE_PIPELINE, out.pipeline.pipeline, name.c_str());
        status = writeShaderBindingTable(ctx, name, uint32_t(groups.size()), out);
    }
    if (!status) {
        destroyRayTracingPipeline(ctx, out);
        return status;
    }
    return out;
}

void destroyRayTracingPipeline(VulkanContext& ctx, RayTracingPipeline& pipeline) {
    destroyBuffer(ctx, pipeline.shaderBindingTable);
    destroyPipeline(ctx, pipeline.pipeline);
    pipeline = RayTracingPipeline{};
}

}  // namespace vkc
