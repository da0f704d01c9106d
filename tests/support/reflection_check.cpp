// SPIR-V reflection check of a PipelineLayoutDesc (SPIRV-Cross C API).
#include "tests/support/reflection_check.h"

#include <spirv_cross_c.h>

#include <string>
#include <vector>

namespace vkc::test {

namespace {

const char* typeName(VkDescriptorType type) {
    switch (type) {
        case VK_DESCRIPTOR_TYPE_SAMPLER: return "sampler";
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "combined image sampler";
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "sampled image";
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "storage image";
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "uniform texel buffer";
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "storage texel buffer";
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "uniform buffer";
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "storage buffer";
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC: return "dynamic uniform buffer";
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: return "dynamic storage buffer";
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: return "input attachment";
        case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR: return "acceleration structure";
        default: return "other descriptor";
    }
}

// Dynamic buffers look like plain ones in SPIR-V.
VkDescriptorType baseType(VkDescriptorType type) {
    if (type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC) return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    return type;
}

struct Reflected {
    uint32_t set, binding;
    VkDescriptorType type;
    uint32_t count;  // 0: runtime-sized array
    std::string name;
};

}  // namespace

Status checkPipelineLayout(std::span<const uint32_t> spirv, const PipelineLayoutDesc& desc, const char* name) {
    std::string shader = name ? name : "shader";
    spvc_context context = nullptr;
    if (spvc_context_create(&context) != SPVC_SUCCESS) return makeError(ErrorCode::Unsupported, "spvc_context_create");
    std::vector<std::string> problems;
    std::vector<Reflected> reflected;
    size_t pushSize = 0;
    bool hasPush = false;

    spvc_parsed_ir ir = nullptr;
    spvc_compiler compiler = nullptr;
    spvc_resources resources = nullptr;
    if (spvc_context_parse_spirv(context, spirv.data(), spirv.size(), &ir) != SPVC_SUCCESS ||
        spvc_context_create_compiler(context, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_shader_resources(compiler, &resources) != SPVC_SUCCESS) {
        std::string error = spvc_context_get_last_error_string(context);
        spvc_context_destroy(context);
        return makeError(ErrorCode::InvalidArgument, shader + ": SPIRV-Cross cannot reflect it: " + error);
    }

    struct Kind {
        spvc_resource_type resource;
        VkDescriptorType type;
    };
    const Kind kinds[] = {
        {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
        {SPVC_RESOURCE_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
        {SPVC_RESOURCE_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
        {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
        {SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
        {SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, VK_DESCRIPTOR_TYPE_SAMPLER},
        {SPVC_RESOURCE_TYPE_SUBPASS_INPUT, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT},
        {SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
    };
    for (const Kind& kind : kinds) {
        const spvc_reflected_resource* list = nullptr;
        size_t count = 0;
        spvc_resources_get_resource_list_for_type(resources, kind.resource, &list, &count);
        for (size_t i = 0; i < count; ++i) {
            Reflected r;
            r.set = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationDescriptorSet);
            r.binding = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationBinding);
            r.type = kind.type;
            r.name = list[i].name;
            spvc_type type = spvc_compiler_get_type_handle(compiler, list[i].type_id);
            // Image buffers are texel buffers in Vulkan.
            bool texel = (kind.resource == SPVC_RESOURCE_TYPE_STORAGE_IMAGE ||
                          kind.resource == SPVC_RESOURCE_TYPE_SAMPLED_IMAGE ||
                          kind.resource == SPVC_RESOURCE_TYPE_SEPARATE_IMAGE) &&
                         spvc_type_get_image_dimension(type) == SpvDimBuffer;
            if (texel)
                r.type = kind.resource == SPVC_RESOURCE_TYPE_STORAGE_IMAGE ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                                                          : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
            r.count = spvc_type_get_num_array_dimensions(type) ? spvc_type_get_array_dimension(type, 0) : 1;
            reflected.push_back(r);
        }
    }
    const spvc_reflected_resource* push = nullptr;
    size_t pushCount = 0;
    spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &push, &pushCount);
    if (pushCount) {
        hasPush = true;
        spvc_type type = spvc_compiler_get_type_handle(compiler, push[0].base_type_id);
        spvc_compiler_get_declared_struct_size(compiler, type, &pushSize);
    }
    spvc_context_destroy(context);

    for (const Reflected& r : reflected) {
        std::string where = "set " + std::to_string(r.set) + " binding " + std::to_string(r.binding) + " ('" + r.name + "')";
        const DescriptorBinding* match = nullptr;
        for (const DescriptorBinding& b : desc.bindings)
            if (b.set == r.set && b.binding == r.binding) match = &b;
        if (!match) {
            problems.push_back(where + ": shader uses a " + typeName(r.type) + ", the desc has no such binding");
            continue;
        }
        if (baseType(match->type) != r.type)
            problems.push_back(where + ": shader has a " + typeName(r.type) + ", the desc has a " + typeName(match->type));
        uint32_t count = match->count ? match->count : 1;
        if (r.count != 0 && r.count != count)
            problems.push_back(where + ": shader has " + std::to_string(r.count) + " descriptors, the desc has " +
                               std::to_string(count));
    }
    if (hasPush && pushSize != desc.pushConstantSize)
        problems.push_back("push constants: shader block is " + std::to_string(pushSize) + " bytes, the desc says " +
                           std::to_string(desc.pushConstantSize));

    if (problems.empty()) return Status::success();
    std::string message = shader + " does not match its PipelineLayoutDesc:";
    for (const std::string& p : problems) message += "\n  " + p;
    return makeError(ErrorCode::InvalidArgument, message);
}

}  // namespace vkc::test
