// The example's raster pass; see frame_renderer.h.
#include "tools/examples/frame_renderer.h"

#include "example_mesh.frag.h"
#include "example_mesh.vert.h"
#include "tools/examples/example_view.h"

#include <array>

namespace vkc::example {
namespace {

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;  // every device can render to it

struct DrawConstants {
    glm::mat4 objectToClip;
    glm::vec4 objectToWorldRows[3];
    glm::vec4 color;
};

VkShaderModule shaderModule(VkDevice device, const uint32_t* code, size_t bytes) {
    VkShaderModuleCreateInfo info = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    if (vkCreateShaderModule(device, &info, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
    return module;
}

}  // namespace

FrameRenderer::FrameRenderer(const HostDevice& host, uint32_t framesInFlight, std::string& error) : host_(host) {
    error = createPipeline();
    slots_.resize(framesInFlight);
    for (Target& target : slots_)
        if (error.empty()) error = createTarget(target);
}

std::string FrameRenderer::createPipeline() {
    const VkDevice device = host_.device;
    std::array<VkAttachmentDescription, 2> attachments = {};
    attachments[0].format = kColorFormat;
    attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
    attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    attachments[1] = attachments[0];
    attachments[1].format = kDepthFormat;
    attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    const VkAttachmentReference colorRef = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    const VkAttachmentReference depthRef = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &colorRef;
    subpass.pDepthStencilAttachment = &depthRef;
    // The image copy after the pass reads what the pass wrote.
    VkSubpassDependency toCopy = {};
    toCopy.srcSubpass = 0;
    toCopy.dstSubpass = VK_SUBPASS_EXTERNAL;
    toCopy.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    toCopy.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    toCopy.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    toCopy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo passInfo = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    passInfo.attachmentCount = uint32_t(attachments.size());
    passInfo.pAttachments = attachments.data();
    passInfo.subpassCount = 1;
    passInfo.pSubpasses = &subpass;
    passInfo.dependencyCount = 1;
    passInfo.pDependencies = &toCopy;
    if (vkCreateRenderPass(device, &passInfo, nullptr, &renderPass_) != VK_SUCCESS) return "vkCreateRenderPass failed";

    const VkPushConstantRange range = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(DrawConstants)};
    VkPipelineLayoutCreateInfo layoutInfo = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &range;
    if (vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_) != VK_SUCCESS) return "vkCreatePipelineLayout failed";

    const VkShaderModule vert = shaderModule(device, kSpirv_example_mesh_vert, sizeof(kSpirv_example_mesh_vert));
    const VkShaderModule frag = shaderModule(device, kSpirv_example_mesh_frag, sizeof(kSpirv_example_mesh_frag));
    if (!vert || !frag) {
        vkDestroyShaderModule(device, vert, nullptr);
        vkDestroyShaderModule(device, frag, nullptr);
        return "vkCreateShaderModule failed";
    }
    std::array<VkPipelineShaderStageCreateInfo, 2> stages = {};
    for (auto& stage : stages) stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = frag;
    stages[1].pName = "main";
    const VkVertexInputBindingDescription binding = {0, kVertexStride, VK_VERTEX_INPUT_RATE_VERTEX};
    const std::array<VkVertexInputAttributeDescription, 2> attributes = {
        {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 12}}};
    VkPipelineVertexInputStateCreateInfo vertexInput = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = 1;
    vertexInput.pVertexBindingDescriptions = &binding;
    vertexInput.vertexAttributeDescriptionCount = uint32_t(attributes.size());
    vertexInput.pVertexAttributeDescriptions = attributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    const VkViewport viewport = {0.0f, 0.0f, float(kImageWidth), float(kImageHeight), 0.0f, 1.0f};
    const VkRect2D scissor = {{0, 0}, {kImageWidth, kImageHeight}};
    VkPipelineViewportStateCreateInfo viewportState = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewportState.viewportCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.scissorCount = 1;
    viewportState.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;  // closed meshes: the depth test hides back faces anyway
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth = {VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = VK_TRUE;
    depth.depthWriteEnable = VK_TRUE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS;
    VkPipelineColorBlendAttachmentState blendAttachment = {};
    blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                     VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &blendAttachment;
    VkGraphicsPipelineCreateInfo info = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.stageCount = uint32_t(stages.size());
    info.pStages = stages.data();
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewportState;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.layout = layout_;
    info.renderPass = renderPass_;
    const VkResult created = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_);
    vkDestroyShaderModule(device, vert, nullptr);
    vkDestroyShaderModule(device, frag, nullptr);
    return created == VK_SUCCESS ? std::string() : "vkCreateGraphicsPipelines failed";
}

std::string FrameRenderer::createTarget(Target& target) {
    const VkDevice device = host_.device;
    auto image = [&](VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage& out,
                     VkDeviceMemory& memory, VkImageView& view) -> bool {
        VkImageCreateInfo info = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        info.imageType = VK_IMAGE_TYPE_2D;
        info.format = format;
        info.extent = {kImageWidth, kImageHeight, 1};
        info.mipLevels = 1;
        info.arrayLayers = 1;
        info.samples = VK_SAMPLE_COUNT_1_BIT;
        info.tiling = VK_IMAGE_TILING_OPTIMAL;
        info.usage = usage;
        if (vkCreateImage(device, &info, nullptr, &out) != VK_SUCCESS) return false;
        VkMemoryRequirements requirements;
        vkGetImageMemoryRequirements(device, out, &requirements);
        VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.allocationSize = requirements.size;
        allocate.memoryTypeIndex = findMemoryType(host_, requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        if (allocate.memoryTypeIndex == UINT32_MAX) allocate.memoryTypeIndex = findMemoryType(host_, requirements.memoryTypeBits, 0);
        if (vkAllocateMemory(device, &allocate, nullptr, &memory) != VK_SUCCESS ||
            vkBindImageMemory(device, out, memory, 0) != VK_SUCCESS)
            return false;
        VkImageViewCreateInfo viewInfo = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        viewInfo.image = out;
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
        viewInfo.format = format;
        viewInfo.subresourceRange = {aspect, 0, 1, 0, 1};
        return vkCreateImageView(device, &viewInfo, nullptr, &view) == VK_SUCCESS;
    };
    if (!image(kColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
               VK_IMAGE_ASPECT_COLOR_BIT, target.color, target.colorMemory, target.colorView) ||
        !image(kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, target.depth,
               target.depthMemory, target.depthView))
        return "cannot create the " + std::to_string(kImageWidth) + "x" + std::to_string(kImageHeight) + " render targets";
    const std::array<VkImageView, 2> views = {target.colorView, target.depthView};
    VkFramebufferCreateInfo framebuffer = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    framebuffer.renderPass = renderPass_;
    framebuffer.attachmentCount = uint32_t(views.size());
    framebuffer.pAttachments = views.data();
    framebuffer.width = kImageWidth;
    framebuffer.height = kImageHeight;
    framebuffer.layers = 1;
    if (vkCreateFramebuffer(device, &framebuffer, nullptr, &target.framebuffer) != VK_SUCCESS) return "vkCreateFramebuffer failed";
    std::string error;
    target.readback = createHostBuffer(host_, VkDeviceSize(kImageWidth) * kImageHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, error);
    return error;
}

void FrameRenderer::record(VkCommandBuffer cmd, uint32_t slot, const HostMeshes& meshes, const glm::mat4& worldToClip,
                           const std::vector<ObjectDraw>& objects) const {
    const Target& target = slots_[slot];
    std::array<VkClearValue, 2> clear = {};
    clear[0].color = {{0.12f, 0.13f, 0.16f, 1.0f}};
    clear[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = renderPass_;
    begin.framebuffer = target.framebuffer;
    begin.renderArea = {{0, 0}, {kImageWidth, kImageHeight}};
    begin.clearValueCount = uint32_t(clear.size());
    begin.pClearValues = clear.data();
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &meshes.vertices.buffer, &offset);
    vkCmdBindIndexBuffer(cmd, meshes.indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    for (const ObjectDraw& object : objects) {
        DrawConstants constants;
        constants.objectToClip = worldToClip * object.objectToWorld;
        for (int row = 0; row < 3; ++row)
            constants.objectToWorldRows[row] =
                glm::vec4(object.objectToWorld[0][row], object.objectToWorld[1][row], object.objectToWorld[2][row], 0.0f);
        constants.color = glm::vec4(object.color, 1.0f);
        vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(constants),
                           &constants);
        const HostMeshRange& range = meshes.ranges[object.mesh];
        vkCmdDrawIndexed(cmd, range.indexCount, 1, range.firstIndex, int32_t(range.firstVertex), 0);
    }
    vkCmdEndRenderPass(cmd);
    VkBufferImageCopy copy = {};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {kImageWidth, kImageHeight, 1};
    vkCmdCopyImageToBuffer(cmd, target.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target.readback.buffer, 1, &copy);
    VkMemoryBarrier toHost = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                         nullptr);
}

FrameRenderer::~FrameRenderer() {
    const VkDevice device = host_.device;
    for (Target& target : slots_) {
        vkDestroyFramebuffer(device, target.framebuffer, nullptr);
        vkDestroyImageView(device, target.colorView, nullptr);
        vkDestroyImageView(device, target.depthView, nullptr);
        vkDestroyImage(device, target.color, nullptr);
        vkDestroyImage(device, target.depth, nullptr);
        vkFreeMemory(device, target.colorMemory, nullptr);
        vkFreeMemory(device, target.depthMemory, nullptr);
        destroyHostBuffer(host_, target.readback);
    }
    vkDestroyPipeline(device, pipeline_, nullptr);
    vkDestroyPipelineLayout(device, layout_, nullptr);
    vkDestroyRenderPass(device, renderPass_, nullptr);
}

}  // namespace vkc::example
