// The requirement table (requiredDeviceFeatures) and the helpers that enable and verify it.
#include "vkcollide/device_requirements.h"

#include "vk/device_feature_chain.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>

namespace vkc {

static_assert(kApiVersion1_2 == VK_API_VERSION_1_2);

namespace {

constexpr uint32_t kCore10Offset = offsetof(VkPhysicalDeviceFeatures2, features);

// A core 1.0 feature (VkPhysicalDeviceFeatures inside VkPhysicalDeviceFeatures2).
#define VKC_CORE10(member, optional)                                                                \
    FeatureRequirement{#member, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,                        \
                       uint32_t(kCore10Offset + offsetof(VkPhysicalDeviceFeatures, member)),        \
                       VK_API_VERSION_1_0, 0, 0, optional}
// A Vulkan 1.2 core feature (no separate extension struct needed: we require 1.2).
#define VKC_CORE12(member, optional)                                                                   \
    FeatureRequirement{#member, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,                 \
                       uint32_t(offsetof(VkPhysicalDeviceVulkan12Features, member)), VK_API_VERSION_1_2, \
                       0, 0, optional}
// A Vulkan 1.3 core feature that an extension struct provides before 1.3.
#define VKC_CORE13(member, extType, extStructType, optional)                                           \
    FeatureRequirement{#member, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,                 \
                       uint32_t(offsetof(VkPhysicalDeviceVulkan13Features, member)), VK_API_VERSION_1_3, \
                       extStructType, uint32_t(offsetof(extType, member)), optional}
// A feature only an extension struct provides.
#define VKC_EXT(member, extType, extStructType, optional)                                          \
    FeatureRequirement{#member, extStructType, uint32_t(offsetof(extType, member)), VK_API_VERSION_1_0, \
                       0, 0, optional}

bool contains(std::span<const std::string> names, const char* name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

const VkBaseInStructure* findStruct(const void* chain, uint32_t type) {
    for (auto* s = static_cast<const VkBaseInStructure*>(chain); s; s = s->pNext)
        if (s->sType == type) return s;
    return nullptr;
}

VkBool32* featureSlot(DeviceFeatureChain& chain, const FeatureRequirement& feature) {
    auto* s = const_cast<VkBaseInStructure*>(findStruct(chain.head(), feature.coreStruct));
    uint32_t offset = feature.coreOffset;
    if (!s && feature.extStruct) {
        s = const_cast<VkBaseInStructure*>(findStruct(chain.head(), feature.extStruct));
        offset = feature.extOffset;
    }
    return s ? reinterpret_cast<VkBool32*>(reinterpret_cast<char*>(s) + offset) : nullptr;
}

constexpr NamedFeatureSet kNamedFeatureSets[] = {
    {kFeatureSetBase, "broadphase"},  {kFeatureSetStencil, "stencil"},       {kFeatureSetLdi, "ldi"},
    {kFeatureSetConsistentPairs, "consistent-pairs"}, {kFeatureSetAabbTree, "aabb-tree"},
    {kFeatureSetEbpi, "ebpi"}, {kFeatureSetRayQuery, "ebpi ray-query backend"},
    {kFeatureSetRayTracingPipeline, "ebpi ray-tracing-pipeline backend"},
};

// A hardware ray backend: its own extension and features, around acceleration structures (their
// builds, and a ray-tracing pipeline's shader binding table, take device addresses).
void addRayTracingRows(DeviceRequirements& r, const char* extension, std::initializer_list<FeatureRequirement> features) {
    r.extensions.push_back({VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, 0, false});
    r.extensions.push_back({extension, 0, false});
    r.extensions.push_back({VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME, 0, false});
    r.features.push_back(VKC_EXT(accelerationStructure, VkPhysicalDeviceAccelerationStructureFeaturesKHR,
                                 VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, false));
    r.features.insert(r.features.end(), features);
    r.features.push_back(VKC_CORE12(bufferDeviceAddress, false));
}

// The rows one set adds (base: those every set needs).
void addSetRows(DeviceRequirements& r, FeatureSets set) {
    const ExtensionRequirement dynamicRenderingExtension{VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME, VK_API_VERSION_1_3,
                                                         false};
    const FeatureRequirement dynamicRendering = VKC_CORE13(dynamicRendering, VkPhysicalDeviceDynamicRenderingFeatures,
                                                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
                                                           false);
    switch (set) {
        case kFeatureSetBase:
            // Barriers are synchronization2; the read-back ring waits on timeline values.
            r.extensions.push_back({VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, VK_API_VERSION_1_3, false});
            r.features.insert(r.features.end(), {
                VKC_CORE13(synchronization2, VkPhysicalDeviceSynchronization2Features,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, false),
                VKC_CORE12(timelineSemaphore, false),
                // Every vertex buffer a frame reads (vertex pages, host buffers) is an element of one
                // runtime-sized, partially bound storage-buffer array whose length each descriptor set
                // picks (shaders_glsl/shared/vertex_fetch.h); the AABB traversal indexes it per
                // thread (pairs of different meshes share a subgroup).
                VKC_CORE10(shaderStorageBufferArrayDynamicIndexing, false),
                VKC_CORE12(shaderStorageBufferArrayNonUniformIndexing, false),
                VKC_CORE12(runtimeDescriptorArray, false),
                VKC_CORE12(descriptorBindingPartiallyBound, false),
                VKC_CORE12(descriptorBindingVariableDescriptorCount, false),
                // Used when there: tools reset query pools from the host, statistics in benchmarks.
                VKC_CORE12(hostQueryReset, true),
                VKC_CORE10(pipelineStatisticsQuery, true),
                VKC_CORE12(bufferDeviceAddress, true),
            });
            break;
        case kFeatureSetStencil:
            // Passes render without render-pass objects; paper 1 counts fragments exactly
            // (occlusion queries used as counters, not booleans); every object's draws are one
            // multi-draw whose first instance names the object (the GPU-driven frame).
            r.extensions.push_back(dynamicRenderingExtension);
            r.features.insert(r.features.end(), {dynamicRendering, VKC_CORE10(occlusionQueryPrecise, false),
                                                 VKC_CORE10(multiDrawIndirect, false),
                                                 VKC_CORE10(drawIndirectFirstInstance, false)});
            break;
        case kFeatureSetLdi:
            // Depth peeling stores each routed fragment's depth from the fragment stage; volumes
            // and their bound are summed in double.
            r.extensions.push_back(dynamicRenderingExtension);
            r.features.insert(r.features.end(), {dynamicRendering, VKC_CORE10(fragmentStoresAndAtomics, false),
                                                 VKC_CORE10(shaderFloat64, false)});
            break;
        case kFeatureSetConsistentPairs:
            // The nearest back faces are kept in an rg32ui storage image (a format this feature
            // guarantees storage support for), written from the fragment stage; pixels counted
            // exactly by occlusion queries; every object's draws are one multi-draw (as stencil's).
            r.extensions.push_back(dynamicRenderingExtension);
            r.features.insert(r.features.end(), {dynamicRendering, VKC_CORE10(occlusionQueryPrecise, false),
                                                 VKC_CORE10(fragmentStoresAndAtomics, false),
                                                 VKC_CORE10(shaderStorageImageExtendedFormats, false),
                                                 VKC_CORE10(multiDrawIndirect, false),
                                                 VKC_CORE10(drawIndirectFirstInstance, false)});
            break;
        case kFeatureSetAabbTree:
            // The triangle-triangle predicates run in double to agree with the exact oracle.
            r.features.push_back(VKC_CORE10(shaderFloat64, false));
            break;
        case kFeatureSetEbpi:
            // The EBPI, the ray plan, the watertight hit test and the volume sums run in double
            // (bit-equal to their CPU references); rays are dispatched indirectly (core).
            r.features.push_back(VKC_CORE10(shaderFloat64, false));
            break;
        case kFeatureSetRayQuery:
            addRayTracingRows(r, VK_KHR_RAY_QUERY_EXTENSION_NAME,
                              {VKC_EXT(rayQuery, VkPhysicalDeviceRayQueryFeaturesKHR,
                                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR, false)});
            break;
        case kFeatureSetRayTracingPipeline:
            addRayTracingRows(
                r, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
                {VKC_EXT(rayTracingPipeline, VkPhysicalDeviceRayTracingPipelineFeaturesKHR,
                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR, false),
                 // The launch size is written on the GPU from the same frame's ray count.
                 VKC_EXT(rayTracingPipelineTraceRaysIndirect, VkPhysicalDeviceRayTracingPipelineFeaturesKHR,
                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR, false)});
            break;
        default: break;
    }
}

// One row per extension and feature name; a row required by any set is required.
template <class Row>
std::vector<Row> mergedRows(const std::vector<Row>& rows) {
    std::vector<Row> merged;
    for (const Row& row : rows) {
        auto same = std::find_if(merged.begin(), merged.end(), [&](const Row& m) { return !strcmp(m.name, row.name); });
        if (same == merged.end()) merged.push_back(row);
        else same->optional = same->optional && row.optional;
    }
    return merged;
}

}  // namespace

std::span<const NamedFeatureSet> namedFeatureSets() { return kNamedFeatureSets; }

DeviceFeatureChain::DeviceFeatureChain() : structs_(std::make_unique<DeviceFeatureStructs>()) {}
DeviceFeatureChain::~DeviceFeatureChain() = default;
VkPhysicalDeviceFeatures2* DeviceFeatureChain::head() { return &structs_->features2; }
const VkPhysicalDeviceFeatures2* DeviceFeatureChain::head() const { return &structs_->features2; }

DeviceRequirements requiredDeviceFeatures(FeatureSets sets) {
    DeviceRequirements r;
    r.minApiVersion = VK_API_VERSION_1_2;
    for (const NamedFeatureSet& named : kNamedFeatureSets)
        if (named.set == kFeatureSetBase || (sets & named.set)) addSetRows(r, named.set);
    r.extensions = mergedRows(r.extensions);
    r.features = mergedRows(r.features);
    return r;
}

std::vector<const char*> deviceExtensionNames(const DeviceRequirements& requirements, uint32_t apiVersion,
                                              std::span<const std::string> available) {
    std::vector<const char*> names;
    for (const ExtensionRequirement& e : requirements.extensions) {
        if (e.promotedIn != 0 && apiVersion >= e.promotedIn) continue;
        if (e.optional && !contains(available, e.name)) continue;
        bool listed = std::any_of(names.begin(), names.end(), [&](const char* n) { return !strcmp(n, e.name); });
        if (!listed) names.push_back(e.name);
    }
    return names;
}

void initFeatureChain(DeviceFeatureChain& chain, uint32_t apiVersion, std::span<const std::string> extensions) {
    DeviceFeatureStructs& c = featureStructsOf(chain);
    c = {};
    c.features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    c.vulkan11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    c.vulkan12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    c.vulkan13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    c.synchronization2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES;
    c.dynamicRendering.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
    c.accelerationStructure.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
    c.rayQuery.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR;
    c.rayTracingPipeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR;

    void** next = &c.features2.pNext;
    auto link = [&](auto& s) {
        *next = &s;
        next = &s.pNext;
    };
    if (apiVersion >= VK_API_VERSION_1_2) {
        link(c.vulkan11);
        link(c.vulkan12);
    }
    if (apiVersion >= VK_API_VERSION_1_3) {
        link(c.vulkan13);
    } else {
        if (contains(extensions, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME)) link(c.synchronization2);
        if (contains(extensions, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME)) link(c.dynamicRendering);
    }
    // Extension structs only with their extension: the validation layer rejects them otherwise.
    if (contains(extensions, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME)) link(c.accelerationStructure);
    if (contains(extensions, VK_KHR_RAY_QUERY_EXTENSION_NAME)) link(c.rayQuery);
    if (contains(extensions, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME)) link(c.rayTracingPipeline);
}

void enableRequiredFeatures(DeviceFeatureChain& chain, const DeviceRequirements& requirements,
                            const VkPhysicalDeviceFeatures2* supported) {
    for (const FeatureRequirement& f : requirements.features) {
        if (f.optional && !(supported && featureEnabled(supported, f))) continue;
        if (VkBool32* slot = featureSlot(chain, f)) *slot = VK_TRUE;
    }
}

bool featureEnabled(const VkPhysicalDeviceFeatures2* chain, const FeatureRequirement& feature) {
    const VkBaseInStructure* s = findStruct(chain, feature.coreStruct);
    uint32_t offset = feature.coreOffset;
    if (!s && feature.extStruct) {
        s = findStruct(chain, feature.extStruct);
        offset = feature.extOffset;
    }
    if (!s) return false;
    VkBool32 value;
    memcpy(&value, reinterpret_cast<const char*>(s) + offset, sizeof(value));
    return value == VK_TRUE;
}

std::vector<std::string> missingRequirements(const DeviceRequirements& requirements, uint32_t apiVersion,
                                             std::span<const std::string> extensions,
                                             const VkPhysicalDeviceFeatures2* features) {
    std::vector<std::string> missing;
    if (apiVersion < requirements.minApiVersion)
        missing.push_back("Vulkan " + std::to_string(VK_API_VERSION_MAJOR(requirements.minApiVersion)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(requirements.minApiVersion)));
    for (const ExtensionRequirement& e : requirements.extensions) {
        if (e.optional || (e.promotedIn != 0 && apiVersion >= e.promotedIn)) continue;
        if (!contains(extensions, e.name)) missing.push_back(e.name);
    }
    for (const FeatureRequirement& f : requirements.features) {
        if (f.optional || featureEnabled(features, f)) continue;
        if (std::find(missing.begin(), missing.end(), f.name) == missing.end()) missing.push_back(f.name);
    }
    return missing;
}

}  // namespace vkc
