// Creates what one frame slot of a detector holds besides its graph's resources (descriptor sets,
// occlusion query pools), each named "<name> [frame slot i]" so that debuggers and validation
// messages tell the slots apart.
#pragma once

#include "vk/context.h"
#include "vk/query_pool.h"

#include <string>

namespace vkc {

class FrameSlotResources {
public:
    FrameSlotResources(VulkanContext& ctx, uint32_t slotIndex);

    // `variableCount`: as allocateDescriptorSet's (vk/descriptors.h).
    Status descriptorSet(VkDescriptorSet& out, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                         const char* name, uint32_t variableCount = 0) const;
    Status queryPool(QueryPool& out, VkQueryType type, uint32_t count, const char* name) const;

private:
    std::string named(const char* name) const { return name + suffix_; }

    VulkanContext& ctx_;
    std::string suffix_;
};

}  // namespace vkc
