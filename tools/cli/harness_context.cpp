// The harness commands' context; see harness_context.h.
#include "tools/cli/harness_context.h"

#include <iostream>

namespace vkc::tools {

Result<Context> createHarnessContext(const HarnessContextOptions& options) {
    HeadlessDesc headless = {};
    headless.deviceName = options.device.empty() ? nullptr : options.device.c_str();
    headless.disableRayTracing = options.disableRayTracing;
    headless.enableValidation = options.validate;
    return createHeadlessContext(headless);
}

Status validationVerdict(const Context& context) {
    const uint32_t count = validationMessageCount(context);
    if (count == 0) return Status::success();
    for (const std::string& message : validationMessages(context)) std::cerr << message << "\n";
    return makeError(ErrorCode::VulkanError,
                     "--validate: " + std::to_string(count) + " validation message(s), printed above");
}

}  // namespace vkc::tools
