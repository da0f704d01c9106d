// Host-visible buffers; see host_buffer.h.
#include "tools/examples/host_buffer.h"

namespace vkc::example {

uint32_t findMemoryType(const HostDevice& host, uint32_t typeBits, VkMemoryPropertyFlags flags) {
    for (uint32_t i = 0; i < host.memory.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (host.memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return UINT32_MAX;
}

HostBuffer createHostBuffer(const HostDevice& host, VkDeviceSize size, VkBufferUsageFlags usage, std::string& error) {
    HostBuffer out;
    out.size = size;
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    if (vkCreateBuffer(host.device, &info, nullptr, &out.buffer) != VK_SUCCESS) {
        error = "vkCreateBuffer failed";
        return out;
    }
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(host.device, out.buffer, &requirements);
    VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = findMemoryType(host, requirements.memoryTypeBits,
                                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (allocate.memoryTypeIndex == UINT32_MAX || vkAllocateMemory(host.device, &allocate, nullptr, &out.memory) != VK_SUCCESS ||
        vkBindBufferMemory(host.device, out.buffer, out.memory, 0) != VK_SUCCESS ||
        vkMapMemory(host.device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped) != VK_SUCCESS)
        error = "no host-visible memory for a " + std::to_string(size) + "-byte buffer";
    return out;
}

void destroyHostBuffer(const HostDevice& host, HostBuffer& buffer) {
    if (buffer.buffer) vkDestroyBuffer(host.device, buffer.buffer, nullptr);
    if (buffer.memory) vkFreeMemory(host.device, buffer.memory, nullptr);
    buffer = {};
}

}  // namespace vkc::example
