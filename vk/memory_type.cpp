// Memory-type choice: wanted flags first, then the minimum that still works.
#include "vk/memory_type.h"

namespace vkc {

uint32_t findMemoryType(const VkPhysicalDeviceMemoryProperties& properties, uint32_t typeBits, MemoryUsage usage) {
    VkMemoryPropertyFlags required = 0, preferred = 0;
    switch (usage) {
        case MemoryUsage::DeviceLocal:
            preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
            break;
        case MemoryUsage::Upload:
            required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
            preferred = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            break;
        case MemoryUsage::Readback:
            required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
            preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;  // CPU reads of uncached memory crawl
            break;
    }
    for (VkMemoryPropertyFlags want : {required | preferred, required}) {
        for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
            if (!(typeBits & (1u << i))) continue;
            if ((properties.memoryTypes[i].propertyFlags & want) == want) return i;
        }
    }
    return UINT32_MAX;
}

}  // namespace vkc
