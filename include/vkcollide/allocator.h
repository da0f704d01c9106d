// Device-memory allocation behind an interface a host can replace (e.g. with its VMA): vkcollide
// asks for memory through Allocator only. The default suballocates large blocks per memory type.
#pragma once

#include "vkcollide/status.h"
#include "vkcollide/vulkan_types.h"

namespace vkc {

// Where memory should live; the allocator picks a memory type from it.
enum class MemoryUsage {
    DeviceLocal,  // GPU only
    Upload,       // host-visible, written by the CPU (staging, constants)
    Readback,     // host-visible, read by the CPU (prefers cached memory)
};

// VkMemoryRequirements, field for field (a struct the public headers cannot hold: vulkan_types.h).
struct MemoryRequirements {
    VkDeviceSize size;
    VkDeviceSize alignment;
    uint32_t memoryTypeBits;
};

struct AllocationRequest {
    MemoryRequirements requirements;
    MemoryUsage usage;
    bool linear;         // a buffer (true) or an optimal-tiling image (false): bufferImageGranularity
    bool deviceAddress;  // bound to a buffer with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
    const char* name;    // the resource; errors and leak reports name it
};

struct Allocation {
    VkDeviceMemory memory = {};
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;  // as requested
    void* mapped = nullptr;  // host pointer to `offset`, null unless host-visible
    uint32_t memoryType = 0;
    bool coherent = true;    // false: flush/invalidate (nonCoherentAtomSize) around host access
    void* handle = nullptr;  // the allocator's own bookkeeping
};

// Lifetime: must outlive every context that uses it. Not called concurrently by vkcollide.
class Allocator {
public:
    virtual ~Allocator() = default;
    // Fails with OutOfDeviceMemory naming request.name and its size.
    virtual Result<Allocation> allocate(const AllocationRequest& request) = 0;
    virtual void free(const Allocation& allocation) = 0;
};

}  // namespace vkc
