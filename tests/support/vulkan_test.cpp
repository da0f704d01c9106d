// The VulkanTest fixture.
#include "tests/support/vulkan_test.h"

#include "tests/support/crash_backtrace.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vkc::test {

bool deviceRequired() {
    const char* value = getenv("VKC_REQUIRE_DEVICE");
    return value && !strcmp(value, "1");
}

std::string sharedDir() {
    const char* value = getenv("VKC_SHARED_DIR");
    return value ? value : "";
}

bool failsTest(LogLevel level, const char* message) {
    // Errors are only ever logged for bugs: validation errors and vkcollide's own (an allocation
    // never freed); validation warnings count too.
    return level >= LogLevel::Error || (level >= LogLevel::Warning && !strncmp(message, "[validation]", 12));
}

void VulkanTest::onLog(void* user, LogLevel level, const char* message) {
    auto* self = static_cast<VulkanTest*>(user);
    if (failsTest(level, message)) {
        // Printed as it comes too: should the test crash later (a driver writing through a handle
        // the message names), the message is in its log all the same.
        fprintf(stderr, "vkcollide test: %s\n", message);
        std::lock_guard<std::mutex> lock(self->logMutex_);
        self->validationLog_.push_back(message);
    }
}

namespace {

// NVIDIA's Vulkan driver cannot be loaded and unloaded without limit in one process: after about
// 40 instances created and destroyed (the loader unloads the driver with the last instance),
// vkCreateInstance fails with VK_ERROR_INCOMPATIBLE_DRIVER (seen on an H200, driver 580.159). One
// bare instance kept for the whole test process keeps the drivers loaded.
void keepDriversLoaded() {
    static const bool kept = [] {
        void* library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
        auto gipa = library ? reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"))
                            : nullptr;
        auto create = gipa ? reinterpret_cast<PFN_vkCreateInstance>(gipa(nullptr, "vkCreateInstance")) : nullptr;
        VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.apiVersion = VK_API_VERSION_1_2;
        VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        info.pApplicationInfo = &app;
        VkInstance instance = VK_NULL_HANDLE;
        return create && create(&info, nullptr, &instance) == VK_SUCCESS;  // never destroyed
    }();
    (void)kept;  // without a driver, SetUp's own context creation reports why
}

}  // namespace

void VulkanTest::SetUp() {
    installCrashBacktrace();
    keepDriversLoaded();
    HeadlessDesc desc = {};
    desc.enableValidation = true;
    desc.log = &VulkanTest::onLog;
    desc.logUser = this;
    desc.featureSets = featureSets();
    Result<Context> context = createHeadlessContext(desc);
    if (!context) {
        if (context.status().code == ErrorCode::NotFound && !deviceRequired())
            GTEST_SKIP() << "no Vulkan device: " << context.status().describe();
        FAIL() << "createHeadlessContext: " << context.status().describe();
    }
    context_ = std::move(context.value());
}

void VulkanTest::TearDown() {
    if (!context_.valid()) return;
    uint32_t count = validationMessageCount(context_);
    std::string text;
    for (const std::string& m : validationMessages(context_)) text += "\n  " + m;
    EXPECT_EQ(count, 0u) << "validation messages during the test:" << text;
    context_ = Context();  // destroys the device: leaked objects are reported now
    std::lock_guard<std::mutex> lock(logMutex_);
    if (validationLog_.size() > count) {
        std::string late;
        for (size_t i = count; i < validationLog_.size(); ++i) late += "\n  " + validationLog_[i];
        ADD_FAILURE() << "validation messages while destroying the context:" << late;
    }
}

}  // namespace vkc::test
