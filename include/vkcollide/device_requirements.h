// What a host must enable on its VkDevice before vkcollide can adopt it, as a data table: one row
// per extension and per VkBool32 feature, so that a method can add its rows without new code.
// DeviceFeatureChain is a ready-made VkDeviceCreateInfo::pNext chain a host may fill from it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vkc {

// Groups of requirements, one per method: a host enables the sets of the methods it uses. The
// base set (0: the scene and the broadphase) is always included.
enum FeatureSetBits : uint32_t {
    kFeatureSetBase = 0,
    kFeatureSetRayQuery = 1u << 0,  // ebpi's default backend: ray queries in compute
    kFeatureSetStencil = 1u << 1,
    kFeatureSetLdi = 1u << 2,
    kFeatureSetConsistentPairs = 1u << 3,
    kFeatureSetAabbTree = 1u << 4,
    kFeatureSetEbpi = 1u << 5,  // ebpi with its compute backend
    kFeatureSetRayTracingPipeline = 1u << 6,  // ebpi's backend where ray queries are missing (data-centre GPUs)
    kFeatureSetAllMethods =
        kFeatureSetStencil | kFeatureSetLdi | kFeatureSetConsistentPairs | kFeatureSetAabbTree | kFeatureSetEbpi,
};
using FeatureSets = uint32_t;

// Each set by name, in table order: {set, "stencil"}, ... (the base set first, as "broadphase").
struct NamedFeatureSet {
    FeatureSets set;
    const char* name;
};
std::span<const NamedFeatureSet> namedFeatureSets();

// A device extension. Not needed once the device's API version reaches promotedIn (0: never).
struct ExtensionRequirement {
    const char* name;
    uint32_t promotedIn;
    bool optional;  // enabled when the device has it; never an error
};

// A VkBool32 feature, enabled either through its core struct (API >= coreVersion) or through
// its extension's struct (extStruct, 0 when it has none). Offsets are bytes into the struct.
struct FeatureRequirement {
    const char* name;  // as in the spec: "synchronization2", "occlusionQueryPrecise"
    VkStructureType coreStruct;
    uint32_t coreOffset;
    uint32_t coreVersion;
    VkStructureType extStruct;
    uint32_t extOffset;
    bool optional;
};

struct DeviceRequirements {
    uint32_t minApiVersion = VK_API_VERSION_1_2;
    std::vector<ExtensionRequirement> extensions;
    std::vector<FeatureRequirement> features;
};

// The extensions and features that the given sets need, each row once (required wins over
// optional). Base: Vulkan 1.2, synchronization2, timeline semaphores and the descriptor-indexing
// features vertex buffers are read through; each method's rows are listed per method in the
// README ("Device requirements", generated from this table and tested against it). A host that
// creates its own device must enable every required row of the sets it names in
// ContextDesc::featureSets; adopting a device that lacks one fails with MissingFeature naming it,
// and creating a detector whose set the context lacks fails the same way.
DeviceRequirements requiredDeviceFeatures(FeatureSets sets = kFeatureSetBase);

// Extension names to pass to vkCreateDevice at `apiVersion`: required ones, plus optional ones
// that `available` lists. Promoted extensions are left out once core.
std::vector<const char*> deviceExtensionNames(const DeviceRequirements& requirements, uint32_t apiVersion,
                                              std::span<const std::string> available);

// Every feature struct vkcollide may need, linked by initFeatureChain. Holds pointers into
// itself: do not copy or move it once initialised.
struct DeviceFeatureChain {
    VkPhysicalDeviceFeatures2 features2;
    VkPhysicalDeviceVulkan11Features vulkan11;
    VkPhysicalDeviceVulkan12Features vulkan12;
    VkPhysicalDeviceVulkan13Features vulkan13;
    VkPhysicalDeviceSynchronization2Features synchronization2;
    VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering;
    VkPhysicalDeviceAccelerationStructureFeaturesKHR accelerationStructure;
    VkPhysicalDeviceRayQueryFeaturesKHR rayQuery;
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rayTracingPipeline;

    DeviceFeatureChain() = default;
    DeviceFeatureChain(const DeviceFeatureChain&) = delete;
    DeviceFeatureChain& operator=(const DeviceFeatureChain&) = delete;
};

// Zeroes the chain and links the structs valid at `apiVersion` with `extensions` (the device's
// supported extensions to query features, or the enabled ones to create a device).
void initFeatureChain(DeviceFeatureChain& chain, uint32_t apiVersion, std::span<const std::string> extensions);

// Sets every required feature in `chain`, and every optional one that `supported` has.
void enableRequiredFeatures(DeviceFeatureChain& chain, const DeviceRequirements& requirements,
                            const VkPhysicalDeviceFeatures2* supported);

// Reads one feature from any pNext chain (a host's too). False when its struct is absent.
bool featureEnabled(const VkPhysicalDeviceFeatures2* chain, const FeatureRequirement& feature);

// Names of the required extensions/features that `extensions` + `features` lack at apiVersion
// (empty when all are there), e.g. {"synchronization2", "VK_KHR_dynamic_rendering"}.
std::vector<std::string> missingRequirements(const DeviceRequirements& requirements, uint32_t apiVersion,
                                             std::span<const std::string> extensions,
                                             const VkPhysicalDeviceFeatures2* features);

}  // namespace vkc
