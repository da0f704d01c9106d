// The host's deformation pass; see mesh_deformer.h.
#include "tools/examples/mesh_deformer.h"

#include "example_deform.comp.h"

#include <array>
#include <cstring>

namespace vkc::example {
namespace {

struct DeformConstants {
    uint32_t firstVertex;
    uint32_t vertexCount;
    float scale;
};

}  // namespace

MeshDeformer::MeshDeformer(const HostDevice& host, const HostMeshes& meshes, uint32_t mesh, const MeshData& rest,
                           std::string& error)
    : host_(host), range_(meshes.ranges[mesh]) {
    const VkDevice device = host.device;
    rest_ = createHostBuffer(host, rest.positions.size() * sizeof(glm::vec3), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, error);
    if (!error.empty()) return;
    std::memcpy(rest_.mapped, rest.positions.data(), rest.positions.size() * sizeof(glm::vec3));

    std::array<VkDescriptorSetLayoutBinding, 2> bindings = {};
    for (uint32_t b = 0; b < 2; ++b) bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    const VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    const VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(DeformConstants)};
    VkPipelineLayoutCreateInfo layoutInfo = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout_;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    if (vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout_) != VK_SUCCESS ||
        vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool_) != VK_SUCCESS ||
        vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_) != VK_SUCCESS) {
        error = "cannot create the deformer's layouts";
        return;
    }
    VkDescriptorSetAllocateInfo allocate = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &setLayout_;
    if (vkAllocateDescriptorSets(device, &allocate, &set_) != VK_SUCCESS) {
        error = "cannot allocate the deformer's descriptor set";
        return;
    }
    const std::array<VkDescriptorBufferInfo, 2> buffers = {{{rest_.buffer, 0, VK_WHOLE_SIZE},
                                                            {meshes.vertices.buffer, 0, VK_WHOLE_SIZE}}};
    std::array<VkWriteDescriptorSet, 2> writes = {};
    for (uint32_t b = 0; b < 2; ++b) {
        writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[b].dstSet = set_;
        writes[b].dstBinding = b;
        writes[b].descriptorCount = 1;
        writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[b].pBufferInfo = &buffers[b];
    }
    vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);

    VkShaderModuleCreateInfo moduleInfo = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = sizeof(kSpirv_example_deform_comp);
    moduleInfo.pCode = kSpirv_example_deform_comp;
    VkShaderModule module = VK_NULL_HANDLE;
    if (vkCreateShaderModule(device, &moduleInfo, nullptr, &module) != VK_SUCCESS) {
        error = "cannot create the deformer's shader module";
        return;
    }
    VkComputePipelineCreateInfo info = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main",
                  nullptr};
    info.layout = layout_;
    if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_) != VK_SUCCESS)
        error = "cannot create the deformer's pipeline";
    vkDestroyShaderModule(device, module, nullptr);
}

void MeshDeformer::record(VkCommandBuffer cmd, float scale) const {
    // Write after read: the previous frame's draws and collision passes read these vertices.
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
                         nullptr, 0, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    const DeformConstants constants = {range_.firstVertex, range_.vertexCount, scale};
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), &constants);
    vkCmdDispatch(cmd, (range_.vertexCount + 63) / 64, 1, 1);

    // This frame's readers: vkcollide's passes (any stage) and the vertex input of the draws.
    VkMemoryBarrier written = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &written, 0,
                         nullptr, 0, nullptr);
}

MeshDeformer::~MeshDeformer() {
    const VkDevice device = host_.device;
    vkDestroyPipeline(device, pipeline_, nullptr);
    vkDestroyPipelineLayout(device, layout_, nullptr);
    vkDestroyDescriptorPool(device, pool_, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout_, nullptr);
    destroyHostBuffer(host_, rest_);
}

}  // namespace vkc::example
