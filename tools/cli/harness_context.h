// The Vulkan context a harness command runs on (`detect`, `compare`): the device the command line
// names, optionally under the Khronos validation layer, whose messages then fail the run.
#pragma once

#include "vkcollide/context.h"

#include <string>

namespace vkc::tools {

struct HarnessContextOptions {
    std::string device;              // --device: an index or a name substring; empty: VKC_DEVICE or best
    bool validate = false;           // --validate: validation layer with synchronization checks
    bool disableRayTracing = false;  // for RenderDoc 1.24, which cannot capture ray tracing
};

Result<Context> createHarnessContext(const HarnessContextOptions& options);

// VulkanError counting the validation messages seen (each printed to stderr), or success when
// there were none; call once the command's GPU work is done.
Status validationVerdict(const Context& context);

}  // namespace vkc::tools
