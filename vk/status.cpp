// Status helpers: readable names for error codes and Vulkan results.
#include "vkcollide/status.h"

#include <vulkan/vulkan_core.h>

#include <string>

namespace vkc {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
        case ErrorCode::Ok: return "ok";
        case ErrorCode::InvalidArgument: return "invalid argument";
        case ErrorCode::InvalidMesh: return "invalid mesh";
        case ErrorCode::InvalidScene: return "invalid scene";
        case ErrorCode::NotFound: return "not found";
        case ErrorCode::MissingFeature: return "missing feature";
        case ErrorCode::OutOfDeviceMemory: return "out of device memory";
        case ErrorCode::VulkanError: return "Vulkan error";
        case ErrorCode::NotReady: return "not ready";
        case ErrorCode::IoError: return "I/O error";
        case ErrorCode::Unsupported: return "unsupported";
    }
    return "unknown error";
}

static const char* vkResultName(VkResult result) {
    switch (result) {
        case VK_SUCCESS: return "VK_SUCCESS";
        case VK_NOT_READY: return "VK_NOT_READY";
        case VK_TIMEOUT: return "VK_TIMEOUT";
        case VK_INCOMPLETE: return "VK_INCOMPLETE";
        case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
        case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
        case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
        case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
        case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
        case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
        case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
        case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
        case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
        case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
        case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
        default: return "VkResult";
    }
}

std::string Status::describe() const {
    if (ok()) return "ok";
    std::string text = std::string(errorCodeName(code)) + ": " + message;
    if (vkResult != VK_SUCCESS)
        text += " (" + std::string(vkResultName(VkResult(vkResult))) + " = " + std::to_string(vkResult) + ")";
    return text;
}

Status makeError(ErrorCode code, std::string message, int32_t vkResult) {
    return Status{code, vkResult, std::move(message)};
}

Status checkVk(int32_t result, const char* what) {
    if (result == VK_SUCCESS) return Status::success();
    ErrorCode code = (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
                         ? ErrorCode::OutOfDeviceMemory
                         : ErrorCode::VulkanError;
    return makeError(code, what, result);
}

}  // namespace vkc
