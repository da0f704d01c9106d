// One frame slot's named resources; see frame_slot_resources.h.
#include "collision/frames/frame_slot_resources.h"

#include "vk/descriptors.h"

namespace vkc {

FrameSlotResources::FrameSlotResources(VulkanContext& ctx, uint32_t slotIndex)
    : ctx_(ctx), suffix_(" [frame slot " + std::to_string(slotIndex) + "]") {}

Status FrameSlotResources::descriptorSet(VkDescriptorSet& out, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                                         const char* name, uint32_t variableCount) const {
    auto created = allocateDescriptorSet(ctx_, pool, layout, named(name).c_str(), variableCount);
    if (!created) return created.status();
    out = created.value();
    return Status::success();
}

Status FrameSlotResources::queryPool(QueryPool& out, VkQueryType type, uint32_t count, const char* name) const {
    auto created = createQueryPool(ctx_, type, count, named(name).c_str());
    if (!created) return created.status();
    out = created.value();
    return Status::success();
}

}  // namespace vkc
