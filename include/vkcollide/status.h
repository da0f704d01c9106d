// Status and Result<T>: how every public vkcollide call reports failure without exceptions.
// A Status carries our own code, the VkResult that caused it (VK_SUCCESS when none) and a message
// that names the object or feature at fault. Result<T> is a value or a Status, never both.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace vkc {

enum class ErrorCode {
    Ok = 0,
    InvalidArgument,    // the caller passed something malformed (a bug in the caller)
    InvalidMesh,        // untrusted mesh data failed a check (open, NaN, index out of range, ...)
    InvalidScene,       // a scene file or scene object is malformed
    NotFound,           // a file, mesh or object that was named does not exist
    MissingFeature,     // the device lacks an extension or feature the request needs
    OutOfDeviceMemory,  // an allocation failed; the message names what was being allocated
    VulkanError,        // any other failing Vulkan call; vkResult says which
    NotReady,           // results for that frame are not available yet (non-blocking calls)
    IoError,            // reading or writing a file failed
    Unsupported,        // the request is valid but this build or method cannot serve it
};

const char* errorCodeName(ErrorCode code);

struct [[nodiscard]] Status {
    ErrorCode code = ErrorCode::Ok;
    int32_t vkResult = 0;  // a VkResult (vulkan_types.h: why an integer); 0: VK_SUCCESS
    std::string message;

    bool ok() const { return code == ErrorCode::Ok; }
    explicit operator bool() const { return ok(); }
    // "code: message (VkResult)" for logs and tool output.
    std::string describe() const;

    static Status success() { return {}; }
};

Status makeError(ErrorCode code, std::string message, int32_t vkResult = 0);

// Checks a Vulkan call's VkResult; on failure returns a Status naming `what` (the call and its object).
Status checkVk(int32_t result, const char* what);

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const Status& status() const { return status_; }

    T& value() & { assert(ok()); return *value_; }
    const T& value() const& { assert(ok()); return *value_; }
    T&& value() && { assert(ok()); return std::move(*value_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }

private:
    std::optional<T> value_;
    Status status_;
};

}  // namespace vkc

// Returns the Status from the enclosing function when `expr` (a Status) failed.
#define VKC_TRY(expr)                         \
    do {                                      \
        ::vkc::Status vkcTryStatus_ = (expr); \
        if (!vkcTryStatus_.ok()) return vkcTryStatus_; \
    } while (0)
