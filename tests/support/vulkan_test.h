// VulkanTest: a gtest fixture that gives each test a headless context on lavapipe (or whatever
// VK_DRIVER_FILES selects) with the Khronos validation layer, and fails the test in TearDown if
// any validation warning or error, or any error vkcollide logged (a leaked allocation), was
// reported, printing the messages.
// Skips only when no Vulkan device exists at all, unless VKC_REQUIRE_DEVICE=1 (CI): then fails.
#pragma once

#include "vk/context.h"
#include "vkcollide/context.h"

#include <gtest/gtest.h>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace vkc::test {

class VulkanTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    VulkanContext& vk() { return vulkanOf(context_); }
    // The method feature sets the context enables; unset: every set the device supports.
    virtual std::optional<FeatureSets> featureSets() const { return std::nullopt; }

    Context context_;

private:
    static void onLog(void* user, LogLevel level, const char* message);

    std::mutex logMutex_;
    std::vector<std::string> validationLog_;  // failing messages seen through the log callback
};

// Whether a message logged by the library fails the test: validation warnings and errors, and
// every error vkcollide logs itself (e.g. a sub-allocation never freed, reported at teardown).
bool failsTest(LogLevel level, const char* message);
// True when VKC_REQUIRE_DEVICE=1: a missing device or feature is a failure, not a skip.
bool deviceRequired();
// The shared meshes directory (VKC_SHARED_DIR), empty when unset.
std::string sharedDir();

}  // namespace vkc::test
