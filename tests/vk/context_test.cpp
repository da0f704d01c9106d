// Headless context creation, device info, the requirement table, device selection and the
// validation-message counter.
#include "tests/support/vulkan_test.h"
#include "vk/buffer.h"
#include "vk/debug.h"
#include "vk/device_feature_chain.h"
#include "vkcollide/context.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace vkc {
namespace {

using test::VulkanTest;

bool hasFeature(const DeviceRequirements& r, const char* name) {
    return std::any_of(r.features.begin(), r.features.end(),
                       [&](const FeatureRequirement& f) { return !strcmp(f.name, name) && !f.optional; });
}

// The base set (the scene and the broadphase) needs no method's features: a GPU without fp64,
// precise occlusion queries or fragment stores can run the broadphase; each method adds its own.
TEST(DeviceRequirementsTest, BaseSetListsCoreNeedsAndEachMethodAddsItsOwn) {
    DeviceRequirements base = requiredDeviceFeatures();
    EXPECT_EQ(base.minApiVersion, VK_API_VERSION_1_2);
    for (const char* name : {"synchronization2", "timelineSemaphore",
                             // the vertex-buffer descriptor array (shaders_glsl/shared/vertex_fetch.h)
                             "runtimeDescriptorArray", "descriptorBindingPartiallyBound",
                             "descriptorBindingVariableDescriptorCount", "shaderStorageBufferArrayNonUniformIndexing"})
        EXPECT_TRUE(hasFeature(base, name)) << name;
    for (const char* name : {"rayQuery", "shaderFloat64", "hostQueryReset", "dynamicRendering", "occlusionQueryPrecise",
                             "fragmentStoresAndAtomics", "shaderStorageImageExtendedFormats"})
        EXPECT_FALSE(hasFeature(base, name)) << name << " is not the broadphase's";
    struct Needs { FeatureSets set; std::vector<const char*> features; };
    for (const Needs& needs : {Needs{kFeatureSetStencil, {"dynamicRendering", "occlusionQueryPrecise", "multiDrawIndirect",
                                                          "drawIndirectFirstInstance"}},
                               Needs{kFeatureSetLdi, {"dynamicRendering", "fragmentStoresAndAtomics", "shaderFloat64"}},
                               Needs{kFeatureSetConsistentPairs, {"dynamicRendering", "occlusionQueryPrecise",
                                                                  "fragmentStoresAndAtomics",
                                                                  "shaderStorageImageExtendedFormats",
                                                                  "multiDrawIndirect", "drawIndirectFirstInstance"}},
                               Needs{kFeatureSetAabbTree, {"shaderFloat64"}}}) {
        const DeviceRequirements method = requiredDeviceFeatures(needs.set);
        for (const char* name : needs.features) EXPECT_TRUE(hasFeature(method, name)) << name << ", set " << needs.set;
        EXPECT_TRUE(hasFeature(method, "synchronization2")) << "every set includes the base";
        EXPECT_EQ(method.features.size(), base.features.size() + needs.features.size()) << "set " << needs.set;
    }
    // A row several sets name appears once.
    const DeviceRequirements all = requiredDeviceFeatures(kFeatureSetAllMethods);
    EXPECT_EQ(std::count_if(all.features.begin(), all.features.end(),
                            [](const FeatureRequirement& f) { return !strcmp(f.name, "dynamicRendering"); }),
              1);

    DeviceRequirements rq = requiredDeviceFeatures(kFeatureSetRayQuery);
    EXPECT_TRUE(hasFeature(rq, "rayQuery"));
    EXPECT_TRUE(hasFeature(rq, "accelerationStructure"));
    EXPECT_TRUE(hasFeature(rq, "bufferDeviceAddress"));
    std::vector<std::string> none;
    std::vector<const char*> at12 = deviceExtensionNames(rq, VK_API_VERSION_1_2, none);
    std::vector<const char*> at13 = deviceExtensionNames(rq, VK_API_VERSION_1_3, none);
    auto has = [](const std::vector<const char*>& v, const char* n) {
        return std::any_of(v.begin(), v.end(), [&](const char* x) { return !strcmp(x, n); });
    };
    // Promoted extensions are needed only below 1.3.
    EXPECT_TRUE(has(at12, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME));
    EXPECT_FALSE(has(at13, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME));
    EXPECT_TRUE(has(at13, VK_KHR_RAY_QUERY_EXTENSION_NAME));
    EXPECT_TRUE(has(at13, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME));
}

// The README's per-method table, rendered from requiredDeviceFeatures: each set's rows beyond
// the base set's (the base row lists its own).
std::string requirementsTable() {
    const DeviceRequirements base = requiredDeviceFeatures(kFeatureSetBase);
    // A row the base set has, at least as strictly.
    auto inBase = [&](const auto& rows, const auto& row) {
        return std::any_of(rows.begin(), rows.end(), [&](const auto& b) {
            return !strcmp(b.name, row.name) && (!b.optional || row.optional);
        });
    };
    std::string table = "| method | extensions | features (optional ones in brackets) |\n|---|---|---|\n";
    for (const NamedFeatureSet& named : namedFeatureSets()) {
        const DeviceRequirements r = requiredDeviceFeatures(named.set);
        std::string extensions, features;
        for (const ExtensionRequirement& e : r.extensions) {
            if (named.set != kFeatureSetBase && inBase(base.extensions, e)) continue;
            extensions += std::string(extensions.empty() ? "" : ", ") + "`" + e.name + "`" +
                          (e.promotedIn == VK_API_VERSION_1_3 ? " (core in 1.3)" : "");
        }
        for (const FeatureRequirement& f : r.features) {
            if (named.set != kFeatureSetBase && inBase(base.features, f)) continue;
            features += std::string(features.empty() ? "" : ", ") + (f.optional ? "[" : "") + f.name +
                        (f.optional ? "]" : "");
        }
        table += std::string("| ") + named.name + " | " + (extensions.empty() ? "—" : extensions) + " | " + features +
                 " |\n";
    }
    return table;
}

TEST(DeviceRequirementsTest, ReadmeListsEachMethodsRequirementsFromTheTable) {
    std::ifstream file(std::string(VKC_SOURCE_DIR) + "/README.md");
    ASSERT_TRUE(file) << "README.md not found";
    const std::string readme((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const std::string begin = "<!-- device-requirements: generated from requiredDeviceFeatures -->\n";
    const size_t start = readme.find(begin);
    ASSERT_NE(start, std::string::npos) << "README.md lacks the marker " << begin;
    const size_t end = readme.find("\n\n", start + begin.size());
    EXPECT_EQ(readme.substr(start + begin.size(), end + 1 - start - begin.size()), requirementsTable())
        << "replace the README's table with the one above";
}

TEST(DeviceRequirementsTest, FeatureChainEnablesAndMissingNamesEachFeature) {
    DeviceRequirements base = requiredDeviceFeatures(kFeatureSetStencil);
    std::vector<std::string> extensions = {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME};
    DeviceFeatureChain chain;
    // At 1.2 the 1.3 features must come from the extension structs.
    initFeatureChain(chain, VK_API_VERSION_1_2, extensions);
    enableRequiredFeatures(chain, base, nullptr);
    DeviceFeatureStructs& structs = featureStructsOf(chain);
    EXPECT_TRUE(structs.synchronization2.synchronization2);
    EXPECT_TRUE(structs.dynamicRendering.dynamicRendering);
    EXPECT_FALSE(structs.vulkan13.synchronization2);  // not linked at 1.2
    EXPECT_TRUE(missingRequirements(base, VK_API_VERSION_1_2, extensions, chain.head()).empty());
    structs.vulkan12.timelineSemaphore = VK_FALSE;
    std::vector<std::string> missing = missingRequirements(base, VK_API_VERSION_1_2, {}, chain.head());
    EXPECT_NE(std::find(missing.begin(), missing.end(), "timelineSemaphore"), missing.end());
    EXPECT_NE(std::find(missing.begin(), missing.end(), VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME), missing.end());
}

class ContextTest : public VulkanTest {};

TEST_F(ContextTest, HeadlessContextReportsDeviceAndLimits) {
    const DeviceInfo& info = deviceInfo(context_);
    EXPECT_FALSE(info.name.empty());
    EXPECT_NE(info.driver.find(':'), std::string::npos) << info.driver;  // "driverName: driverInfo"
    EXPECT_TRUE(info.missing.empty());
    EXPECT_GE(vk().apiVersion, VK_API_VERSION_1_2);
    EXPECT_GT(vk().timestampPeriod, 0.0f);
    EXPECT_GT(vk().timestampValidBits, 0u);
    EXPECT_GT(vk().subgroupSize, 0u);
    EXPECT_GT(vk().memoryProperties.memoryTypeCount, 0u);
    EXPECT_TRUE(vk().hasDebugUtils);  // validation forces it on
    EXPECT_NE(vk().messenger, VK_NULL_HANDLE);
    // Ray queries are enabled exactly when the device offers the whole set.
    EXPECT_EQ(vk().hasRayQuery, info.rayQuery && info.accelerationStructure);
    // Either hardware ray backend brings acceleration structures (NVIDIA: pipelines, no queries).
    EXPECT_EQ(vk().hasRayQuery || vk().hasRayTracingPipeline, vk().hasAccelerationStructure);
    if (vk().hasAccelerationStructure) {
        EXPECT_TRUE(vk().hasBufferDeviceAddress);
    }
    // CI's lavapipe offers both hardware ray backends: the ebpi tests check every backend a device
    // has, so losing one there must fail here rather than shrink those tests.
    if (test::deviceRequired() && info.name.find("llvmpipe") != std::string::npos) {
        EXPECT_TRUE(vk().hasRayQuery);
        EXPECT_TRUE(vk().hasRayTracingPipeline);
    }
    // The device table is ours, filled through vkGetDeviceProcAddr, with 1.3 names resolved.
    EXPECT_NE(vk().vkd.vkQueueSubmit2, nullptr);
    EXPECT_NE(vk().vkd.vkCmdBeginRendering, nullptr);
    EXPECT_NE(vk().vkd.vkCreateBuffer, nullptr);
}

TEST_F(ContextTest, ListDevicesFindsTheChosenDevice) {
    Result<std::vector<DeviceInfo>> devices = listDevices();
    ASSERT_TRUE(devices.ok()) << devices.status().describe();
    auto it = std::find_if(devices->begin(), devices->end(),
                           [&](const DeviceInfo& d) { return d.name == deviceInfo(context_).name; });
    ASSERT_NE(it, devices->end());
    EXPECT_TRUE(it->missing.empty());
    EXPECT_GE(it->apiVersion, VK_API_VERSION_1_2);
    EXPECT_STRNE(deviceTypeName(it->type), "");
}

TEST_F(ContextTest, DeviceNameOverrideThatMatchesNothingIsNamedInTheError) {
    setenv("VKC_DEVICE", "no-such-gpu-xyz", 1);
    HeadlessDesc desc = {};
    Result<Context> other = createHeadlessContext(desc);
    unsetenv("VKC_DEVICE");
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.status().code, ErrorCode::NotFound);
    EXPECT_NE(other.status().message.find("no-such-gpu-xyz"), std::string::npos) << other.status().message;

    desc.deviceIndex = 1000;
    other = createHeadlessContext(desc);
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.status().message.find("1000"), std::string::npos) << other.status().message;
}

TEST_F(ContextTest, NamesAndLabelsAreAcceptedByTheLayer) {
    Result<Buffer> buffer = createBuffer(vk(), {256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal, "named"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    setObjectName(context_, VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer->buffer), "renamed buffer");
    uint32_t zero = 0;
    EXPECT_TRUE(uploadBuffer(vk(), buffer.value(), &zero, sizeof(zero)).ok());  // records a labelled one-shot
    destroyBuffer(vk(), buffer.value());
}

// Not a VulkanTest: this context is meant to see a validation error.
TEST(ValidationCounterTest, CountsAndReportsAValidationError) {
    HeadlessDesc desc = {};
    desc.enableValidation = true;
    Result<Context> context = createHeadlessContext(desc);
    if (!context.ok() && context.status().code == ErrorCode::NotFound && !test::deviceRequired())
        GTEST_SKIP() << context.status().describe();
    ASSERT_TRUE(context.ok()) << context.status().describe();
    VulkanContext& vk = vulkanOf(*context);
    EXPECT_EQ(validationMessageCount(context.value()), 0u);
    // usage 0 breaks VUID-VkBufferCreateInfo-usage-requiredbitmask; harmless for the driver.
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 64;
    info.usage = 0;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkResult result = vk.vkd.vkCreateBuffer(vk.device, &info, nullptr, &buffer);
    if (result == VK_SUCCESS) vk.vkd.vkDestroyBuffer(vk.device, buffer, nullptr);
    EXPECT_GE(validationMessageCount(context.value()), 1u);
    std::vector<std::string> messages = validationMessages(context.value());
    ASSERT_FALSE(messages.empty());
    EXPECT_NE(messages[0].find("usage"), std::string::npos) << messages[0];
}

// Not a VulkanTest either: a sub-allocation left alive when its context goes must fail the
// fixture. The allocator reports it at teardown; the fixture's rule has to catch that message.
TEST(ValidationCounterTest, AnAllocationNeverFreedFailsTheFixture) {
    std::vector<std::string> failing;
    HeadlessDesc desc = {};
    desc.enableValidation = true;
    desc.log = [](void* user, LogLevel level, const char* message) {
        if (test::failsTest(level, message)) static_cast<std::vector<std::string>*>(user)->push_back(message);
    };
    desc.logUser = &failing;
    Result<Context> context = createHeadlessContext(desc);
    if (!context.ok() && context.status().code == ErrorCode::NotFound && !test::deviceRequired())
        GTEST_SKIP() << context.status().describe();
    ASSERT_TRUE(context.ok()) << context.status().describe();
    auto buffer = createBuffer(vulkanOf(*context), {256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::DeviceLocal,
                                                   "forgotten buffer"});
    ASSERT_TRUE(buffer.ok()) << buffer.status().describe();
    // Only the sub-allocation leaks: the VkBuffer goes, so validation itself has nothing to say.
    vulkanOf(*context).vkd.vkDestroyBuffer(vulkanOf(*context).device, buffer->buffer, vulkanOf(*context).allocationCallbacks);
    EXPECT_TRUE(failing.empty());
    context.value() = Context();
    ASSERT_EQ(failing.size(), 1u);
    EXPECT_NE(failing[0].find("forgotten buffer"), std::string::npos) << failing[0];
    EXPECT_NE(failing[0].find("never freed"), std::string::npos) << failing[0];
}

}  // namespace
}  // namespace vkc
