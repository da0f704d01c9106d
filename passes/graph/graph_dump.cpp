// Graph::dump: the compiled graph as text for tests and bug reports. One line per resource, then
// each pass in execution order with its merged accesses (name, version change, kinds, layout)
// and derived barriers, then the final barriers. Flags print as Vulkan names without the
// VK_*_ prefix and _BIT suffix, lowest bit first, so the text is stable across runs.
#include "passes/graph/graph.h"

#include <cstdio>

namespace vkc {
namespace {

struct FlagName {
    uint64_t bit;
    const char* name;
};

constexpr FlagName kStageNames[] = {
    {VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, "TOP_OF_PIPE"},
    {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, "DRAW_INDIRECT"},
    {VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT, "VERTEX_INPUT"},
    {VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, "VERTEX_SHADER"},
    {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, "FRAGMENT_SHADER"},
    {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT, "EARLY_FRAGMENT_TESTS"},
    {VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, "LATE_FRAGMENT_TESTS"},
    {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, "COLOR_ATTACHMENT_OUTPUT"},
    {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, "COMPUTE_SHADER"},
    {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, "ALL_TRANSFER"},
    {VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, "BOTTOM_OF_PIPE"},
    {VK_PIPELINE_STAGE_2_HOST_BIT, "HOST"},
    {VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT, "ALL_GRAPHICS"},
    {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, "ALL_COMMANDS"},
    {VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR, "RAY_TRACING_SHADER"},
    {VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, "ACCELERATION_STRUCTURE_BUILD"},
    {VK_PIPELINE_STAGE_2_COPY_BIT, "COPY"},
    {VK_PIPELINE_STAGE_2_RESOLVE_BIT, "RESOLVE"},
    {VK_PIPELINE_STAGE_2_BLIT_BIT, "BLIT"},
    {VK_PIPELINE_STAGE_2_CLEAR_BIT, "CLEAR"},
    {VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, "INDEX_INPUT"},
    {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, "VERTEX_ATTRIBUTE_INPUT"},
};

constexpr FlagName kAccessNames[] = {
    {VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, "INDIRECT_COMMAND_READ"},
    {VK_ACCESS_2_INDEX_READ_BIT, "INDEX_READ"},
    {VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, "VERTEX_ATTRIBUTE_READ"},
    {VK_ACCESS_2_UNIFORM_READ_BIT, "UNIFORM_READ"},
    {VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT, "INPUT_ATTACHMENT_READ"},
    {VK_ACCESS_2_SHADER_READ_BIT, "SHADER_READ"},
    {VK_ACCESS_2_SHADER_WRITE_BIT, "SHADER_WRITE"},
    {VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT, "COLOR_ATTACHMENT_READ"},
    {VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, "COLOR_ATTACHMENT_WRITE"},
    {VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, "DEPTH_STENCIL_ATTACHMENT_READ"},
    {VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, "DEPTH_STENCIL_ATTACHMENT_WRITE"},
    {VK_ACCESS_2_TRANSFER_READ_BIT, "TRANSFER_READ"},
    {VK_ACCESS_2_TRANSFER_WRITE_BIT, "TRANSFER_WRITE"},
    {VK_ACCESS_2_HOST_READ_BIT, "HOST_READ"},
    {VK_ACCESS_2_HOST_WRITE_BIT, "HOST_WRITE"},
    {VK_ACCESS_2_MEMORY_READ_BIT, "MEMORY_READ"},
    {VK_ACCESS_2_MEMORY_WRITE_BIT, "MEMORY_WRITE"},
    {VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR, "ACCELERATION_STRUCTURE_READ"},
    {VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR, "ACCELERATION_STRUCTURE_WRITE"},
    {VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, "SHADER_SAMPLED_READ"},
    {VK_ACCESS_2_SHADER_STORAGE_READ_BIT, "SHADER_STORAGE_READ"},
    {VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, "SHADER_STORAGE_WRITE"},
};

constexpr FlagName kBufferUsageNames[] = {
    {VK_BUFFER_USAGE_TRANSFER_SRC_BIT, "TRANSFER_SRC"},
    {VK_BUFFER_USAGE_TRANSFER_DST_BIT, "TRANSFER_DST"},
    {VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, "UNIFORM_TEXEL_BUFFER"},
    {VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, "STORAGE_TEXEL_BUFFER"},
    {VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "UNIFORM_BUFFER"},
    {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "STORAGE_BUFFER"},
    {VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "INDEX_BUFFER"},
    {VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "VERTEX_BUFFER"},
    {VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "INDIRECT_BUFFER"},
    {VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, "SHADER_DEVICE_ADDRESS"},
    {VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR, "ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY"},
    {VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR, "ACCELERATION_STRUCTURE_STORAGE"},
};

constexpr FlagName kImageUsageNames[] = {
    {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, "TRANSFER_SRC"},
    {VK_IMAGE_USAGE_TRANSFER_DST_BIT, "TRANSFER_DST"},
    {VK_IMAGE_USAGE_SAMPLED_BIT, "SAMPLED"},
    {VK_IMAGE_USAGE_STORAGE_BIT, "STORAGE"},
    {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, "COLOR_ATTACHMENT"},
    {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, "DEPTH_STENCIL_ATTACHMENT"},
    {VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, "TRANSIENT_ATTACHMENT"},
    {VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, "INPUT_ATTACHMENT"},
};

// Bits in table order, '|'-separated; bits the table lacks print as one hex remainder.
template <size_t N>
std::string flagsText(uint64_t flags, const FlagName (&names)[N]) {
    if (flags == 0) return "NONE";
    std::string text;
    for (const FlagName& entry : names) {
        if ((flags & entry.bit) != entry.bit) continue;
        if (!text.empty()) text += '|';
        text += entry.name;
        flags &= ~entry.bit;
    }
    if (flags != 0) {
        char hex[32];
        std::snprintf(hex, sizeof(hex), "0x%llx", static_cast<unsigned long long>(flags));
        if (!text.empty()) text += '|';
        text += hex;
    }
    return text;
}

const char* layoutText(VkImageLayout layout) {
    switch (layout) {
        case VK_IMAGE_LAYOUT_UNDEFINED: return "UNDEFINED";
        case VK_IMAGE_LAYOUT_GENERAL: return "GENERAL";
        case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL: return "COLOR_ATTACHMENT_OPTIMAL";
        case VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL: return "DEPTH_STENCIL_ATTACHMENT_OPTIMAL";
        case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL: return "DEPTH_STENCIL_READ_ONLY_OPTIMAL";
        case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL: return "SHADER_READ_ONLY_OPTIMAL";
        case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL: return "TRANSFER_SRC_OPTIMAL";
        case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL: return "TRANSFER_DST_OPTIMAL";
        case VK_IMAGE_LAYOUT_PREINITIALIZED: return "PREINITIALIZED";
        case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL: return "READ_ONLY_OPTIMAL";
        case VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL: return "ATTACHMENT_OPTIMAL";
        case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR: return "PRESENT_SRC";
        default: return "OTHER_LAYOUT";
    }
}

std::string kindsText(uint32_t kinds) {
    std::string text;
    for (uint32_t kind = 0; kind < kAccessKindCount; ++kind) {
        if ((kinds & (1u << kind)) == 0) continue;
        if (!text.empty()) text += '|';
        text += accessName(Access(kind));
    }
    return text;
}

}  // namespace

std::string Graph::dump() const {
    std::string out;
    out += "graph: " + std::to_string(buffers_.size()) + " buffers, " + std::to_string(images_.size()) +
           " images, " + std::to_string(passes_.size()) + " passes" + (compiled_ ? "" : " (not compiled)") + "\n";
    for (size_t i = 0; i < buffers_.size(); ++i) {
        const BufferResource& buffer = buffers_[i];
        out += "buffer " + std::to_string(i) + " '" + buffer.name + "' ";
        if (buffer.imported) out += "imported";
        else out += "transient size=" + std::to_string(buffer.desc.size);
        out += " usage=" + flagsText(buffer.usage, kBufferUsageNames) + "\n";
    }
    for (size_t i = 0; i < images_.size(); ++i) {
        const ImageResource& image = images_[i];
        out += "image " + std::to_string(i) + " '" + image.name + "' " + (image.imported ? "imported" : "transient") +
               " " + std::to_string(image.desc.width) + "x" + std::to_string(image.desc.height) + "x" +
               std::to_string(image.desc.layers) + " format=" + std::to_string(int(image.desc.format)) +
               " usage=" + flagsText(image.usage, kImageUsageNames) + "\n";
    }
    auto barrierLine = [&](const GraphBarrier& barrier) {
        std::string line = "  barrier " + describeResource(barrier.isImage, barrier.resource) + " " +
                           flagsText(barrier.srcStages, kStageNames) + "/" + flagsText(barrier.srcAccess, kAccessNames) +
                           " -> " + flagsText(barrier.dstStages, kStageNames) + "/" +
                           flagsText(barrier.dstAccess, kAccessNames);
        if (barrier.isImage)
            line += std::string(" layout ") + layoutText(barrier.oldLayout) + " -> " + layoutText(barrier.newLayout);
        return line + "\n";
    };
    for (size_t p = 0; p < passes_.size(); ++p) {
        const Pass& pass = passes_[p];
        out += "pass " + std::to_string(p) + " '" + pass.name + "'\n";
        for (const PassAccess& use : pass.accesses) {
            out += std::string("  ") + (use.isWrite ? "write " : "read ") + describeResource(use.isImage, use.resource) +
                   " v" + std::to_string(use.inputVersion);
            if (use.outputVersion != use.inputVersion) {
                out += "->v";
                out += std::to_string(use.outputVersion);
            }
            out += ' ';
            out += kindsText(use.kinds);
            if (use.isImage) {
                out += ' ';
                out += layoutText(use.layout);
            }
            out += "\n";
        }
        for (const GraphBarrier& barrier : pass.barriers) out += barrierLine(barrier);
    }
    out += "final\n";
    for (const GraphBarrier& barrier : finalBarriers_) out += barrierLine(barrier);
    return out;
}

}  // namespace vkc
