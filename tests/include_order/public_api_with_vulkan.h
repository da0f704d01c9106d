// Uses every Vulkan name of the public headers together with Vulkan's own definitions, in the
// include order of the test that includes it: a declaration of vkcollide/vulkan_types.h that
// disagrees with vulkan_core.h fails to compile, and an enum passed as an integer that lost its
// value fails the checks.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace vkc::test {
namespace {  // each test's own copy, compiled in its own include order

// Return types the headers only name are Vulkan's complete structs at a host's call site.
template <class Method>
constexpr bool signalsAVulkanSemaphore =
    std::is_same_v<decltype(std::declval<Method&>().completionSignal(0)), ::VkSemaphoreSubmitInfo> &&
    sizeof(decltype(std::declval<Method&>().completionSignal(0))) == sizeof(VkSemaphoreSubmitInfo);
static_assert(signalsAVulkanSemaphore<Broadphase> && signalsAVulkanSemaphore<StencilDetector> &&
              signalsAVulkanSemaphore<LdiDetector> && signalsAVulkanSemaphore<ConsistentPairsDetector> &&
              signalsAVulkanSemaphore<AabbTreeDetector> && signalsAVulkanSemaphore<EbpiDetector>);
static_assert(std::is_same_v<decltype(ContextDesc::getInstanceProcAddr), PFN_vkGetInstanceProcAddr>);
static_assert(sizeof(MemoryRequirements) == sizeof(VkMemoryRequirements));

const FeatureRequirement* findFeature(const DeviceRequirements& requirements, const char* name) {
    for (const FeatureRequirement& f : requirements.features)
        if (!strcmp(f.name, name)) return &f;
    return nullptr;
}

void usePublicApiWithVulkanTypes() {
    // Enums travel as integers and keep their values.
    const Status lost = makeError(ErrorCode::VulkanError, "lost", VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(lost.vkResult, VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(checkVk(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory").code, ErrorCode::OutOfDeviceMemory);
    EXPECT_TRUE(checkVk(VK_SUCCESS, "vkCreateBuffer").ok());
    EXPECT_STREQ(deviceTypeName(VK_PHYSICAL_DEVICE_TYPE_CPU), "cpu");
    EXPECT_EQ(DeviceInfo{}.type, uint32_t(VK_PHYSICAL_DEVICE_TYPE_OTHER));
    const DeviceRequirements requirements = requiredDeviceFeatures(kFeatureSetBase);
    EXPECT_EQ(requirements.minApiVersion, VK_API_VERSION_1_2);
    const FeatureRequirement* timeline = findFeature(requirements, "timelineSemaphore");
    ASSERT_NE(timeline, nullptr);
    EXPECT_EQ(timeline->coreStruct, uint32_t(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES));
    EXPECT_EQ(timeline->coreOffset, offsetof(VkPhysicalDeviceVulkan12Features, timelineSemaphore));

    // Null handles and the feature chain, as a host creating its device uses them.
    EXPECT_EQ(MeshDesc{}.hostVertexBuffer, VkBuffer(VK_NULL_HANDLE));
    EXPECT_EQ(Allocation{}.memory, VkDeviceMemory(VK_NULL_HANDLE));
    DeviceFeatureChain chain;
    initFeatureChain(chain, VK_API_VERSION_1_3, {});
    enableRequiredFeatures(chain, requirements, nullptr);
    VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.pNext = chain.head();
    ContextDesc desc = {};
    desc.enabledFeatures = chain.head();
    EXPECT_EQ(chain.head()->sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    const VkPhysicalDeviceVulkan12Features* vulkan12 = nullptr;
    for (auto* s = static_cast<const VkBaseInStructure*>(deviceInfo.pNext); s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
            vulkan12 = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
    ASSERT_NE(vulkan12, nullptr);
    EXPECT_EQ(vulkan12->timelineSemaphore, VK_TRUE);
    EXPECT_TRUE(featureEnabled(desc.enabledFeatures, *timeline));
}

}  // namespace
}  // namespace vkc::test
