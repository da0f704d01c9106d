// What a host must enable on its VkDevice before vkcollide can adopt it, as a data table: one row
// per extension and per VkBool32 feature, so that a method can add its rows without new code.
// DeviceFeatureChain is a ready-made VkDeviceCreateInfo::pNext chain a host may fill from it.
#pragma once

#include "vkcollide/vulkan_types.h"

#include <cstdint>
#include <memory>
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
// its extension's struct (extStruct, 0 when it has none). Structs are named by their VkStructureType
// (vulkan_types.h: why an integer); offsets are bytes into the struct.
struct FeatureRequirement {
    const char* name;  // as in the spec: "synchronization2", "occlusionQueryPrecise"
    uint32_t coreStruct;
    uint32_t coreOffset;
    uint32_t coreVersion;
    uint32_t extStruct;
    uint32_t extOffset;
    bool optional;
};

inline constexpr uint32_t kApiVersion1_2 = (1u << 22) | (2u << 12);  // VK_API_VERSION_1_2

struct DeviceRequirements {
    uint32_t minApiVersion = kApiVersion1_2;
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

struct DeviceFeatureStructs;  // the structs themselves (vk/device_feature_chain.h)

// Every feature struct vkcollide may need (VkPhysicalDeviceFeatures2, Vulkan 1.1-1.3, and the
// synchronization2, dynamic-rendering and ray-tracing extension structs), linked by
// initFeatureChain. They live behind a pointer, since the public headers name Vulkan's structs
// without defining them (vulkan_types.h). Not copyable: the structs point at each other.
class DeviceFeatureChain {
public:
    DeviceFeatureChain();  // zeroed and unlinked until initFeatureChain
    DeviceFeatureChain(const DeviceFeatureChain&) = delete;
    DeviceFeatureChain& operator=(const DeviceFeatureChain&) = delete;
    ~DeviceFeatureChain();

    // The chain's first struct: VkDeviceCreateInfo::pNext, ContextDesc::enabledFeatures, or
    // vkGetPhysicalDeviceFeatures2's output.
    VkPhysicalDeviceFeatures2* head();
    const VkPhysicalDeviceFeatures2* head() const;

private:
    friend struct DeviceFeatureChainAccess;  // the library's internals and tests
    std::unique_ptr<DeviceFeatureStructs> structs_;
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
